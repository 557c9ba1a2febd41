import Foundation
import OpenCoreData
import Testing

/// A process killed while it migrates a store leaves the store at the old version or the new one,
/// never between: the SQLite store migrates in the transaction that loads it, so a kill rolls the
/// whole migration back. Each round kills a process opening the store with the new version at
/// another moment of the migration (filling 60,000 rows' new required attribute, adding an entity
/// and columns); afterwards the store opens with exactly one of the two versions, with every row.
@Suite struct InterruptedMigrationTests {
    static let books = 60_000
    static let oldVersion: Set<LibraryChange> = [.addSubtitle]
    static let newVersion: Set<LibraryChange> = [.requiredSubtitleWithDefault, .addShelfEntity, .addDefaultedAttributes]
    /// When each round's process kills itself, in milliseconds after it starts to open the store.
    static let killDelays = [0, 40, 100, 150, 200, 250, 300, 600]

    @Test(.timeLimit(.hang))
    func aMigrationKilledMidwayLeavesTheOldOrTheNewVersion() async throws {
        let directory = TemporaryDirectory()
        let store = directory.file("Library.sqlite")
        try Self.seed(try openLibrary(in: directory, model: libraryModel(Self.oldVersion)))
        var outcomes: [String] = []
        for delay in Self.killDelays {
            let path = store.path
            await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, delay = delay as Int] in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { kill(getpid(), SIGKILL) }
                let container = PersistentContainer(name: "Library", managedObjectModel: libraryModel(InterruptedMigrationTests.newVersion))
                container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
                try? container.loadPersistentStores()
                // Migrated before the kill: die all the same, as the round expects.
                kill(getpid(), SIGKILL)
            }
            #expect(try SQLiteIntegrity.check(path: store.path) == "ok", "killed after \(delay) ms")
            outcomes.append(try Self.versionAndRows(in: directory, delay: delay))
            if outcomes.last?.hasPrefix("new") == true { break }
        }
        // The new version opens in the end, with every row, whatever the rounds left.
        let migrated = try openLibrary(in: directory, model: libraryModel(Self.newVersion))
        #expect(try Self.subtitles(in: migrated) == ["untitled": Self.books + 3])
        print("interrupted migration: \(outcomes.joined(separator: "; "))")
    }

    /// Version 1 of the library with a subtitle, and many more books (none with a subtitle).
    private static func seed(_ container: PersistentContainer) throws {
        try seedLibrary(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let rows: [[String: Any]] = (0..<books).map { ["title": "Book \($0)", "pages": Int32($0 % 900)] }
            _ = try context.execute(BatchInsertRequest(entityName: "Book", objects: rows))
        }
    }

    /// Which version the store opens with after a round ("old" or "new") and what its books hold;
    /// records an issue when neither opens, or rows are missing or half migrated.
    private static func versionAndRows(in directory: TemporaryDirectory, delay: Int) throws -> String {
        if let old = try? openLibrary(in: directory, model: libraryModel(oldVersion)) {
            // Not migrated: no book has a subtitle, and the new entity is not there.
            #expect(try subtitles(in: old) == ["nil": books + 3], "killed after \(delay) ms: the old version's rows changed")
            return "old after \(delay) ms"
        }
        let new = try openLibrary(in: directory, model: libraryModel(newVersion))
        #expect(try subtitles(in: new) == ["untitled": books + 3], "killed after \(delay) ms: the migration is incomplete")
        return "new after \(delay) ms"
    }

    /// How many books have each subtitle ("nil" for none).
    private static func subtitles(in container: PersistentContainer) throws -> [String: Int] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<NSDictionary>(entityName: "Book")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["subtitle"]
            var counts: [String: Int] = [:]
            for row in try context.fetch(request) {
                counts[row["subtitle"] as? String ?? "nil", default: 0] += 1
            }
            return counts
        }
    }
}
