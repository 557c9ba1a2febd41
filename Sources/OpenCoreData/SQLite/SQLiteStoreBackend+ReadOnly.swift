import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a store read-only where its directory cannot be written: a read-only mount, or a
/// directory without write permission.
///
/// In WAL mode SQLite reads through an index file beside the store (`-shm`), and creates it when
/// it is missing; where it cannot, opening fails. A store whose last connection closed cleanly
/// (or a copy of the file alone) has no index and no log: the file holds every save, so it is
/// opened as immutable (SQLite's `immutable=1`), which reads the file alone, without locks and
/// without the index. A log left beside it with saves in it (a crash, or a copy made while an app
/// ran) cannot be read without the index: the store is refused, naming the log, rather than shown
/// without those saves. Where another connection keeps the index (an app running on the same
/// files, seen through a read-only mount), SQLite reads through it as usual.
extension SQLiteStoreBackend {
    /// Reading the schema fails at once on a file that is not a database, or cannot be read.
    static func checkedOpen<Writer: DatabaseWriter>(_ writer: Writer) throws -> Writer {
        _ = try writer.read { db in try db.tableExists(SQLiteSchema.metadataTable) }
        return writer
    }

    static func openReadOnly(_ url: URL, configuration: Configuration) throws -> DatabaseQueue {
        do {
            return try checkedOpen(DatabaseQueue(path: url.path, configuration: configuration))
        } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
            && access(url.deletingLastPathComponent().path, W_OK) != 0 && access(url.path, R_OK) == 0 {
            // SQLite says CANTOPEN on a read-only mount, READONLY (CANTINIT) in a directory
            // without write permission.
            let log = url.path + "-wal"
            let logSize = (try? FileManager.default.attributesOfItem(atPath: log))?[.size] as? Int ?? 0
            guard logSize == 0 else {
                throw PersistentStoreError(PersistentStoreError.cannotOpen,
                    "the store's write-ahead log \(log) holds saves that are not in the store file yet, and SQLite cannot read it in a directory it cannot write (it needs to create \(url.lastPathComponent)-shm beside it); open the store once where its directory is writable, which moves the log into the file",
                    url: url)
            }
            do {
                return try checkedOpen(DatabaseQueue(path: immutableURI(for: url), configuration: configuration))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN {
                // An SQLite built without URI file names (SQLITE_USE_URI) takes the URI for a path.
                throw PersistentStoreError(PersistentStoreError.cannotOpen,
                    "the store's directory cannot be written, and SQLite could not open the file as immutable there (\(error.message ?? "unable to open database file")); copy the store to a writable directory",
                    url: url)
            }
        }
    }

    /// `file:<path>?immutable=1`, with the path escaped for a URI.
    private static func immutableURI(for url: URL) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (url.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path) + "?immutable=1"
    }
}
