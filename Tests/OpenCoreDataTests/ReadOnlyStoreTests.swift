import Foundation
import OpenCoreData
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store opened read-only (`isReadOnly`) from a place it cannot write: a read-only mount, or a
/// directory without write permission. SQLite's WAL mode reads through an index file beside the
/// store (`-shm`), which it cannot create there.
///
/// Root ignores permissions: as root, the read-only directory is read by a child process that
/// dropped its privileges (`CrashTestWriter --count-read-only`, under `setpriv`), and the
/// read-only mount is a read-only bind mount, which binds root too.
@Suite(.serialized) struct ReadOnlyStoreTests {
    enum Place: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case readOnlyMount
        case readOnlyDirectory

        var testDescription: String { rawValue }
    }

    static var isRoot: Bool { geteuid() == 0 }

    /// The places this machine can make: a bind mount needs root.
    static var places: [Place] { isRoot ? Place.allCases : [.readOnlyDirectory] }

    /// `directory` made read-only until ``restore()``: seen through a read-only bind mount, or
    /// with its write permission removed.
    final class ReadOnlyView {
        let place: Place
        let source: URL
        /// Where to open the store from.
        let url: URL

        init(of directory: URL, as place: Place) throws {
            self.place = place
            source = directory
            switch place {
            case .readOnlyMount:
                url = directory.deletingLastPathComponent().appendingPathComponent("read-only-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                try Self.run("/bin/mount", "--bind", directory.path, url.path)
                do {
                    try Self.run("/bin/mount", "-o", "remount,ro,bind", url.path)
                } catch {
                    try? Self.run("/bin/umount", url.path)
                    throw error
                }
            case .readOnlyDirectory:
                url = directory
                try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
            }
        }

        func restore() {
            switch place {
            case .readOnlyMount:
                // A connection not yet closed keeps the mount busy: detach it lazily then.
                if (try? Self.run("/bin/umount", url.path)) == nil { try? Self.run("/bin/umount", "-l", url.path) }
                try? FileManager.default.removeItem(at: url)
            case .readOnlyDirectory:
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: source.path)
            }
        }

        static func run(_ tool: String, _ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw WriterFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(complaint)")
            }
        }
    }

    /// What opening a store read-only gave: the number of entries, or the error's code and message.
    enum Reading: Equatable {
        case count(Int)
        case error(code: Int, message: String)
    }

    /// Opens the store read-only and counts its entries, in this process or, where root would not
    /// feel the read-only directory, in a child that dropped its privileges.
    static func readOnlyCount(_ store: URL, in view: ReadOnlyView) throws -> Reading {
        guard isRoot, view.place == .readOnlyDirectory else { return readOnlyCountHere(store) }
        let writer = try #require(CrashHarness.writerURL(), "CrashTestWriter was not found; build it with `swift build --build-tests`")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", writer.path, "--count-read-only", store.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("count "), let count = Int(line.dropFirst(6)) { return .count(count) }
        let words = line.split(separator: " ", maxSplits: 2)
        if words.count == 3, words[0] == "error", let code = Int(words[1]) { return .error(code: code, message: String(words[2])) }
        throw WriterFailure(description: "the reader printed '\(printed)' (status \(process.terminationStatus)): \(complaint)")
    }

    private static func readOnlyCountHere(_ store: URL) -> Reading {
        do {
            let container = try readOnlyContainer(store)
            defer { close(container) }
            let context = container.newBackgroundContext()
            return .count(try context.performAndWait { try context.count(for: CrashEntry.fetchRequest()) })
        } catch let error as PersistentStoreError {
            return .error(code: error.code.rawValue, message: error.message)
        } catch {
            return .error(code: 0, message: "\(error)")
        }
    }

    static func readOnlyContainer(_ store: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "CrashTest", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [CrashEntry.self]))
        let description = PersistentStoreDescription(url: store)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    static func writableContainer(_ store: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "CrashTest", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [CrashEntry.self]))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
        try container.loadPersistentStores()
        return container
    }

    static func close(_ container: PersistentContainer) {
        for store in container.persistentStoreCoordinator.persistentStores {
            try? container.persistentStoreCoordinator.remove(store)
        }
    }

    static func save(entries: Int, into container: PersistentContainer, batch: Int64 = 0) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<entries {
                let entry = CrashEntry(context: context)
                entry.batch = batch
                entry.index = Int64(index)
            }
            try context.save()
        }
    }

    /// A store file alone, every save in it: as the last connection to close leaves it when it
    /// can write (SQLite then deletes the log and its index), or as a copy of the file alone
    /// (a store shipped on read-only media).
    @Test(arguments: places)
    func aStoreFileAloneOpensReadOnlyFromAPlaceItCannotWrite(_ place: Place) throws {
        let directory = TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("store", isDirectory: true)
        let store = folder.appendingPathComponent("Store.sqlite")
        let writer = try Self.writableContainer(store)
        try Self.save(entries: 5, into: writer)
        Self.close(writer)
        // Closing moved the log into the file; what is left beside it is empty or an index.
        let log = (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal"))?[.size] as? Int ?? 0
        try #require(log == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Store.sqlite"])

        let view = try ReadOnlyView(of: folder, as: place)
        defer { view.restore() }
        let seen = view.url.appendingPathComponent("Store.sqlite")
        let reading = try Self.readOnlyCount(seen, in: view)
        #expect(reading == .count(5))
        if view.place == .readOnlyMount || !Self.isRoot {
            // Saves are refused as for any read-only store.
            let reader = try Self.readOnlyContainer(seen)
            defer { Self.close(reader) }
            let context = reader.newBackgroundContext()
            let error = context.performAndWait {
                CrashEntry(context: context).batch = 9
                return #expect(throws: PersistentStoreError.self) { try context.save() }
            }
            #expect(error?.code == PersistentStoreError.readOnly)
        }
    }

    /// Another connection has the store open in a writable place, with saves still in its log:
    /// reading through a read-only mount of it sees them (SQLite uses the index that connection
    /// keeps), rather than the store file alone.
    @Test(.enabled(if: isRoot, "a bind mount needs root"))
    func savesStillInTheLogAreSeenThroughAReadOnlyMount() throws {
        let directory = TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("store", isDirectory: true)
        let store = folder.appendingPathComponent("Store.sqlite")
        let writer = try Self.writableContainer(store)
        defer { Self.close(writer) }
        try Self.save(entries: 5, into: writer)
        try Self.save(entries: 3, into: writer, batch: 1)
        let log = (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal"))?[.size] as? Int ?? 0
        #expect(log > 0, "the saves are not in the log; the test proves nothing")

        let view = try ReadOnlyView(of: folder, as: .readOnlyMount)
        defer { view.restore() }
        let reading = try Self.readOnlyCount(view.url.appendingPathComponent("Store.sqlite"), in: view)
        #expect(reading == .count(8))
    }

    /// A copy of a store with saves still in its log but without the index (as a crash, or a copy
    /// made while the app ran, leaves it): SQLite cannot read the log where it cannot create the
    /// index. Opening is refused with an error naming the log, rather than showing the store file
    /// without those saves.
    @Test(arguments: places)
    func aLogThatCannotBeReadIsRefusedNotIgnored(_ place: Place) throws {
        let directory = TemporaryDirectory()
        let original = directory.file("Original.sqlite")
        let writer = try Self.writableContainer(original)
        try Self.save(entries: 5, into: writer)
        let folder = directory.url.appendingPathComponent("copy", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: folder.appendingPathComponent("Store.sqlite").path + suffix)
        }
        Self.close(writer)

        let view = try ReadOnlyView(of: folder, as: place)
        defer { view.restore() }
        let reading = try Self.readOnlyCount(view.url.appendingPathComponent("Store.sqlite"), in: view)
        guard case .error(let code, let message) = reading else {
            Issue.record("the copy opened and showed \(reading) instead of being refused")
            return
        }
        #expect(code == PersistentStoreError.cannotOpen.rawValue)
        #expect(message.contains("Store.sqlite-wal"), "\(message)")
    }
}
