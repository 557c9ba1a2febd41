import Foundation

/// The folder beside an SQLite store that holds the large values of binary attributes marked
/// `allowsExternalBinaryDataStorage`, where Core Data keeps them: for `Library.sqlite`,
/// `.Library_SUPPORT/_EXTERNAL_DATA/`, one file per value, named by a UUID. The value's column
/// holds the file's name as TEXT instead of the bytes as a BLOB.
///
/// A file is written inside the save's transaction (so under the store's write lock) before
/// the row that names it, and synchronised to disk before the commit; a value replaced or
/// deleted loses its file once the commit is done, and a save that fails removes the files it
/// wrote. Whatever a killed process leaves behind is an unreferenced file, removed by the next
/// ``SQLiteStoreBackend/sweepExternalData(loaded:)`` (each load runs one under the lock).
struct SQLiteExternalData: Sendable {
    /// Values of at least this many bytes go to files; smaller ones stay in the row, where
    /// reading them costs less than opening a file. Core Data's threshold is undocumented and
    /// about the same.
    static let threshold = 100 * 1024

    let folder: URL

    init(store url: URL) {
        let name = url.deletingPathExtension().lastPathComponent
        folder = url.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Whether a column's TEXT names a file of this folder: a UUID, as written here. Text of
    /// any other shape (another program's) reads as no value, as before external storage.
    static func isFileName(_ text: String) -> Bool {
        text.count == 36 && UUID(uuidString: text) != nil
    }

    /// Writes `data` to a new file and returns its name.
    func write(_ data: Data) throws -> String {
        let name = UUID().uuidString
        let file = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        // The row that names the file may be committed next: the bytes must be on disk first.
        try handle.synchronize()
        return name
    }

    func read(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name), options: .mappedIfSafe)
    }

    /// Removes files; a file already gone is not an error (a sweep may have taken it).
    func remove(_ names: some Sequence<String>) {
        for name in names {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The names of the files in the folder; none if there is no folder.
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(Self.isFileName)
    }

    var exists: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// Removes the whole folder and its support folder if that is left empty, for
    /// `destroyPersistentStore`.
    func removeAll() {
        try? FileManager.default.removeItem(at: folder)
        let support = folder.deletingLastPathComponent()
        if (try? FileManager.default.contentsOfDirectory(atPath: support.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: support)
        }
    }

    /// Copies the files of `source` this folder lacks, for copies of a store.
    func copyMissingFiles(from source: SQLiteExternalData) throws {
        let names = source.fileNames()
        guard !names.isEmpty else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let present = Set(fileNames())
        for name in names where !present.contains(name) {
            try FileManager.default.copyItem(at: source.folder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }
}

/// The files one save wrote and the files it makes unreferenced: the first are removed if the
/// save does not commit, the second once it has.
final class SQLiteExternalDataChanges {
    var written: [String] = []
    var released: [String] = []

    func finish(committed: Bool, in folder: SQLiteExternalData) {
        folder.remove(committed ? released : written)
        written = []
        released = []
    }
}
