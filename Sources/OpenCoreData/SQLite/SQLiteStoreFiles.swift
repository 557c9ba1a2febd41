import Foundation
import GRDB

/// Whole-store operations on SQLite files, for the coordinator's `destroyPersistentStore`,
/// `replacePersistentStore` and `migratePersistentStore`. Each works through SQLite's own locks,
/// never by deleting or copying the database's files, so that another connection or process that
/// has the store open sees a consistent database throughout. The files of externally stored
/// values (``SQLiteExternalData``) are copied before the rows naming them, and removed after.
enum SQLiteStoreFiles {
    /// Empties the store at `url`: every table, index and trigger is dropped in one exclusive
    /// transaction and the file shrunk. The empty file stays, as Core Data's SQLite store leaves
    /// it: deleting a file that another connection has open would let that connection's log join
    /// the next store made at the path. Nothing happens if there is no file.
    static func destroy(at url: URL, timeout: TimeInterval) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try SQLiteStoreBackend.retryingWhileBusy(url: url, timeout: timeout) { try SQLiteStoreBackend.inspectExistingFile(at: url, timeout: timeout) }
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration(timeout: timeout))
            defer { try? queue.close() }
            try queue.inTransaction(.exclusive) { db in
                let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
                for object in objects {
                    let type: String = object["type"]
                    let name: String = object["name"]
                    // Indexes and triggers go with their tables.
                    if type == "table" { try db.execute(sql: "DROP TABLE IF EXISTS \(name.quotedDatabaseIdentifier)") }
                    if type == "view" { try db.execute(sql: "DROP VIEW IF EXISTS \(name.quotedDatabaseIdentifier)") }
                }
                return .commit
            }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" { try db.checkpoint(.truncate) }
            }
        } catch {
            throw SQLiteStoreBackend.storeError(error, url: url, doing: "destroying the store")
        }
        // No row names its files now.
        SQLiteExternalData(store: url).removeAll()
    }

    /// Copies the store at `source` over the one at `destination` with SQLite's backup, which
    /// reads a consistent state of the source and replaces the destination under its lock.
    static func replace(_ destination: URL, with source: URL, timeout: TimeInterval) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "there is no store to copy at \(source.path)", url: source)
        }
        try SQLiteStoreBackend.retryingWhileBusy(url: source, timeout: timeout) { try SQLiteStoreBackend.inspectExistingFile(at: source, timeout: timeout) }
        try SQLiteStoreBackend.retryingWhileBusy(url: destination, timeout: timeout) { try SQLiteStoreBackend.inspectExistingFile(at: destination, timeout: timeout) }
        do {
            var readOnly = configuration(timeout: timeout)
            readOnly.readonly = true
            let reader = try DatabaseQueue(path: source.path, configuration: readOnly)
            defer { try? reader.close() }
            try copyExternalData(of: source, to: destination)
            try copy(from: reader, to: destination, timeout: timeout)
        } catch {
            throw SQLiteStoreBackend.storeError(error, url: destination, doing: "replacing the store with \(source.path)")
        }
    }

    /// Copies an open store to a new file at `destination`, which must not hold a store yet.
    static func copy(from reader: any DatabaseReader, to destination: URL, timeout: TimeInterval) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let writer = try DatabaseQueue(path: destination.path, configuration: configuration(timeout: timeout))
        defer { try? writer.close() }
        try reader.backup(to: writer)
        // The copy keeps the source's journal mode; stores open their files in WAL mode.
        try writer.writeWithoutTransaction { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" { try db.checkpoint(.truncate) }
        }
    }

    /// Copies the files of the values `source` keeps outside its rows, before the rows that
    /// name them; the destination's own files that no row names any more go at its next load.
    static func copyExternalData(of source: URL, to destination: URL) throws {
        try SQLiteExternalData(store: destination).copyMissingFiles(from: SQLiteExternalData(store: source))
    }

    private static func configuration(timeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(timeout)
        configuration.prepareDatabase { db in
            // The store's collations and functions, which its indexes and triggers may name.
            SQLiteFunctions.register(in: db)
        }
        return configuration
    }
}
