import Foundation
import OpenCoreData
import Testing

// Bad input of every kind — files that are not stores, damaged stores, unusable directories,
// requests and values naming things the model does not have, invalid models — must end in a
// thrown error whose code says what kind of problem it is and whose message names it. Never a
// crash, and never a change to data already saved.

/// The sqlite3 command-line shell, to make and inspect databases the way another program would.
enum SQLiteShell {
    static let path = "/usr/bin/sqlite3"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `sql` on the database at `url` and returns what the shell printed, trimmed.
    @discardableResult
    static func run(_ sql: String, on url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [url.path, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "sqlite3 failed (\(process.terminationStatus)): \(String(decoding: complaints, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

// MARK: - Invalid @Managed declarations (each used by one test only)

/// `pets` names an inverse `keeper` that BrokenPet does not have.
final class BrokenOwner: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "keeper") var pets: Set<BrokenPet>
}

final class BrokenPet: ManagedObject {
    @Managed var name: String
    @Managed(inverse: "pets") var owner: BrokenOwner?
}

/// A default that changes with every instance.
final class BrokenStamp: ManagedObject {
    @Managed var created: Date = Date()
}

/// Two classes claiming one entity name.
final class BrokenTwinA: ManagedObject {
    override class var entityName: String { "Twin" }
    @Managed var left: String?
}

final class BrokenTwinB: ManagedObject {
    override class var entityName: String { "Twin" }
    @Managed var right: String?
}

// MARK: - Helpers

extension PersistentContainer {
    /// Closes every loaded store, so that the file can be inspected or damaged as a whole.
    func closeStores() throws {
        for store in persistentStoreCoordinator.persistentStores {
            try persistentStoreCoordinator.remove(store)
        }
    }
}

/// A container on `url` with the fixtures' model, not yet loaded.
private func container(at url: URL, model: ManagedObjectModel? = nil,
                       configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
    let container = PersistentContainer(name: "Bad", managedObjectModel: try model ?? Fixtures.model())
    let description = PersistentStoreDescription(url: url)
    configure(description)
    container.persistentStoreDescriptions = [description]
    return container
}

/// Saves `count` teams through a new context.
private func saveTeams(_ count: Int, in container: PersistentContainer, named prefix: String = "Team") throws {
    let context = container.newBackgroundContext()
    try context.performAndWait {
        for index in 0..<count {
            let team = Team(context: context)
            team.teamName = "\(prefix) \(index)"
            team.qualifyingZone = "UEFA"
        }
        try context.save()
    }
}

/// The number of saved teams, read through a fresh context.
private func teamCount(in container: PersistentContainer) throws -> Int {
    let context = container.newBackgroundContext()
    return try context.performAndWait { try context.count(for: Team.fetchRequest()) }
}

/// Checks that `error` is a coded error with `code` whose description contains every fragment.
private func expect(_ error: (any Error)?, is code: CoreDataErrorCode, naming fragments: [String],
                    sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error = error as? any CoreDataCodedError else {
        Issue.record("expected a \(code) error, got \(String(describing: error))", sourceLocation: sourceLocation)
        return
    }
    #expect(error.code == code, "got \(error.code): \(error)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(error.description.contains(fragment), "message lacks '\(fragment)': \(error)", sourceLocation: sourceLocation)
    }
}

/// Text files in place of a store: shorter than an SQLite header, and several pages long.
enum TextFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case short, long

    var contents: String {
        switch self {
        case .short: "hello, I am a shopping list\n"
        case .long: String(repeating: "milk, eggs, flour, butter, sugar\n", count: 300)
        }
    }

    var testDescription: String { rawValue }
}

/// How a test damages a store file.
enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The second half of the pages: table contents, with the schema intact.
    case laterPages
    /// Every page after the first: the schema page survives, the store's metadata does not.
    case everyPageButTheFirst

    var testDescription: String { rawValue }
}

@Suite struct BadInputTests {
    // MARK: Files that are not stores

    @Test(arguments: TextFile.allCases)
    func textFileIsAnInvalidStoreFileAndIsLeftAlone(_ file: TextFile) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let text = file.contents
        try Data(text.utf8).write(to: url)
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url).loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.invalidStoreFile, naming: ["not an SQLite database", "Notes.sqlite"])
        #expect(try Data(contentsOf: url) == Data(text.utf8), "the text file was changed")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func storeURLNamingADirectoryCannotBeOpened() throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("Folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: folder).loadPersistentStores()
        }
        #expect(error.map { [PersistentStoreError.cannotOpen, PersistentStoreError.invalidStoreFile].contains($0.code) } == true,
                "got \(String(describing: error))")
        #expect(error?.description.contains("Folder.sqlite") == true, "\(String(describing: error))")
    }

    /// A store damaged after it was written (a bad disk, a partial copy) reports corruptStore
    /// when it is loaded or read, and the library neither deletes nor truncates the file.
    ///
    /// Closing a store leaves its pages in the WAL file (GRDB closes the pool's writer before its
    /// read-only readers, so no connection checkpoints), so the sqlite3 shell moves them into the
    /// main file first; without the shell there is nothing in the main file to damage.
    @Test(.enabled(if: SQLiteShell.isAvailable, "needs /usr/bin/sqlite3 to checkpoint the WAL"), arguments: Damage.allCases)
    func damagedStoreReportsCorruptionInsteadOfCrashing(_ damage: Damage) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Damaged.sqlite")
        do {
            let original = try container(at: url)
            try original.loadPersistentStores()
            let context = original.newBackgroundContext()
            try context.performAndWait {
                for index in 0..<400 {
                    let item = Item(context: context)
                    item.name = "item \(index) " + String(repeating: "x", count: 200)
                }
                try context.save()
            }
            try original.closeStores()
        }
        try SQLiteShell.run("PRAGMA wal_checkpoint(TRUNCATE)", on: url)
        try #require(!FileManager.default.fileExists(atPath: url.path + "-wal"), "the WAL should be checkpointed and gone")

        var bytes = [UInt8](try Data(contentsOf: url))
        try #require(bytes.count > 4096)
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = bytes.count / pageSize
        try #require(pageCount >= 8, "the store should span several pages")
        let start = pageSize * (damage == .laterPages ? pageCount / 2 : 1)
        for offset in start..<bytes.count {
            bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ 7)
        }
        let damaged = Data(bytes)
        try damaged.write(to: url)

        let error = #expect(throws: PersistentStoreError.self) {
            let reopened = try container(at: url)
            try reopened.loadPersistentStores()
            let context = reopened.newBackgroundContext()
            try context.performAndWait {
                let items = try context.all(Item.self)
                _ = items.map(\.name)
                _ = try context.count(for: Item.fetchRequest())
            }
        }
        expect(error, is: PersistentStoreError.corruptStore, naming: ["damaged", "Damaged.sqlite"])
        // Opening a store may write to it (GRDB opens a pool with a small schema change), but the
        // library never deletes, truncates or rebuilds a damaged file.
        let remaining = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        #expect((remaining ?? 0) >= damaged.count, "the damaged file was truncated or removed")
    }

    /// Loading must not be the only check: a store whose metadata rows were deleted by another
    /// program is damaged, not new.
    @Test(.enabled(if: SQLiteShell.isAvailable, "needs /usr/bin/sqlite3 to edit the store as another program"))
    func storeWithoutItsMetadataIsCorrupt() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        do {
            let original = try container(at: url)
            try original.loadPersistentStores()
            try saveTeams(2, in: original)
            try original.closeStores()
        }
        try SQLiteShell.run("DELETE FROM _ocd_metadata WHERE key = 'modelSchema'", on: url)
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url).loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.corruptStore, naming: ["metadata"])
        #expect(try SQLiteShell.run("SELECT count(*) FROM Team", on: url) == "2")
    }

    /// Rows edited by another program can hold values of any type in any column; reading them
    /// must not stop the process.
    @Test(.enabled(if: SQLiteShell.isAvailable, "needs /usr/bin/sqlite3 to edit the store as another program"))
    func rowsEditedByAnotherProgramDoNotCrashReads() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        do {
            let original = try container(at: url)
            try original.loadPersistentStores()
            let context = original.newBackgroundContext()
            try context.performAndWait {
                let team = Team(context: context)
                team.teamName = "Chile"
                team.qualifyingZone = "CONMEBOL"
                let player = Player(context: context)
                player.name = "Alexis"
                player.team = team
                try context.save()
            }
            try original.closeStores()
        }
        // A to-one key without its entity code, and an entity code that is not a number.
        try SQLiteShell.run("UPDATE Player SET _team_entity = NULL; UPDATE Team SET _entity = 'team'", on: url)
        let reopened = try container(at: url)
        try reopened.loadPersistentStores()
        let context = reopened.newBackgroundContext()
        context.performAndWait {
            do {
                let players = try context.all(Player.self)
                _ = players.map { $0.team?.teamName }
                _ = try context.all(Team.self).map(\.teamName)
            } catch {
                expect(error, is: PersistentStoreError.corruptStore, naming: ["Store.sqlite"])
            }
        }
    }

    @Test(.enabled(if: SQLiteShell.isAvailable, "needs /usr/bin/sqlite3 to make a database as another program"))
    func databaseOfAnotherProgramIsAnInvalidStoreFileAndIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Customers.db")
        try SQLiteShell.run("""
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO customers (name) VALUES ('Ada'), ('Grace');
            """, on: url)
        let before = try Data(contentsOf: url)
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url).loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.invalidStoreFile, naming: ["not made by OpenCoreData", "customers"])
        #expect(try SQLiteShell.run("SELECT group_concat(name) FROM customers", on: url) == "Ada,Grace")
        #expect(try SQLiteShell.run("SELECT count(*) FROM sqlite_master WHERE name LIKE '\\_ocd%' ESCAPE '\\'", on: url) == "0")
        #expect(try SQLiteShell.run("PRAGMA journal_mode", on: url) == "delete", "the other program's journal mode was changed")
        #expect(try Data(contentsOf: url) == before, "the other program's database was changed")
    }

    // MARK: Directories

    /// A directory the process cannot write into. Root ignores permission bits, so as root the
    /// store goes under a regular file instead, which no one can create a directory in.
    @Test func storeInAnUnwritableDirectoryCannotBeOpened() throws {
        let directory = TemporaryDirectory()
        let blocked: URL
        let url: URL
        if getuid() == 0 {
            let file = directory.file("plain-file")
            try Data("not a directory".utf8).write(to: file)
            blocked = file.appendingPathComponent("sub")
            url = blocked.appendingPathComponent("Store.sqlite")
        } else {
            blocked = directory.file("locked")
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: blocked.path)
            url = blocked.appendingPathComponent("Store.sqlite")
        }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: blocked.path) }
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url).loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.cannotOpen, naming: [blocked.path])
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func missingDirectoriesAreCreated() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("a/b/c", isDirectory: true).appendingPathComponent("Store.sqlite")
        let store = try container(at: url)
        try store.loadPersistentStores()
        try saveTeams(1, in: store)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try teamCount(in: store) == 1)
    }

    // MARK: Store descriptions

    @Test func readOnlyStoreRefusesSavesAndKeepsItsData() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        do {
            let writer = try container(at: url)
            try writer.loadPersistentStores()
            try saveTeams(2, in: writer)
            try writer.closeStores()
        }
        let reader = try container(at: url) { $0.isReadOnly = true }
        try reader.loadPersistentStores()
        #expect(reader.persistentStoreCoordinator.persistentStores.first?.isReadOnly == true)
        #expect(try teamCount(in: reader) == 2)
        let context = reader.newBackgroundContext()
        context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Wales"
            team.qualifyingZone = "UEFA"
            let saveError = #expect(throws: PersistentStoreError.self) { try context.save() }
            expect(saveError, is: PersistentStoreError.readOnly, naming: ["read-only"])
            #expect(context.hasChanges, "a refused save keeps the context's changes")
            // Reserving keys writes too.
            let idError = #expect(throws: PersistentStoreError.self) { try context.obtainPermanentIDs(for: [team]) }
            #expect(idError?.code == PersistentStoreError.readOnly, "\(String(describing: idError))")
        }
        #expect(try teamCount(in: reader) == 2)
    }

    @Test func readOnlyStoreThatDoesNotExistCannotBeOpened() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Missing.sqlite")
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url) { $0.isReadOnly = true }.loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.cannotOpen, naming: ["read-only", "Missing.sqlite"])
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// A store URL that names a directory, read-only or not: refused as one that cannot be
    /// opened, saying it is a directory (SQLite says "disk I/O error" read-only, "unable to open
    /// database file" otherwise).
    @Test(arguments: [false, true])
    func storeURLThatIsADirectoryCannotBeOpened(readOnly: Bool) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Folder.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = #expect(throws: PersistentStoreError.self) {
            try container(at: url) { $0.isReadOnly = readOnly }.loadPersistentStores()
        }
        expect(error, is: PersistentStoreError.cannotOpen, naming: ["names a directory", "Folder.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).isEmpty)
    }

    @Test func unsupportedDescriptionsAreRefused() throws {
        let directory = TemporaryDirectory()
        let unknownType = #expect(throws: PersistentStoreError.self) {
            try container(at: directory.file("A.sqlite")) { $0.type = "Binary" }.loadPersistentStores()
        }
        expect(unknownType, is: PersistentStoreError.unknownStoreType, naming: ["Binary"])

        let noURL = #expect(throws: PersistentStoreError.self) {
            try container(at: directory.file("B.sqlite")) { $0.url = nil }.loadPersistentStores()
        }
        expect(noURL, is: PersistentStoreError.cannotOpen, naming: ["URL"])

        let configuration = #expect(throws: PersistentStoreError.self) {
            try container(at: directory.file("C.sqlite")) { $0.configuration = "Cloud" }.loadPersistentStores()
        }
        expect(configuration, is: PersistentStoreError.unsupportedConfiguration, naming: ["Cloud"])

        let twice = try container(at: directory.file("D.sqlite"))
        try twice.loadPersistentStores()
        let second = #expect(throws: PersistentStoreError.self) { try twice.loadPersistentStores() }
        expect(second, is: PersistentStoreError.unsupportedConfiguration, naming: ["one store"])
    }

    // MARK: Requests naming what the model lacks

    @Test(arguments: StoreKind.withPostgres)
    func fetchOfAnUnknownEntityThrows(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Spaceship")
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            expect(error, is: ObjectGraphError.unknownEntity, naming: ["Spaceship"])
            let countError = #expect(throws: ObjectGraphError.self) { try context.count(for: request) }
            expect(countError, is: ObjectGraphError.unknownEntity, naming: ["Spaceship"])
            let unnamed = #expect(throws: ObjectGraphError.self) { try context.fetch(FetchRequest<ManagedObject>()) }
            expect(unnamed, is: ObjectGraphError.unknownEntity, naming: ["entityName"])
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func sortByAnUnknownKeyThrows(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try saveTeams(2, in: stack.container)
        let context = stack.newContext()
        context.performAndWait {
            let cases = [("altitude", FetchRequestError.unknownKeyPath), ("coach.age", FetchRequestError.unknownKeyPath),
                         ("players", FetchRequestError.unsupportedExpression), ("players.name", FetchRequestError.unsupportedExpression)]
            for (key, code) in cases {
                let request = Team.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(key: "teamName"), FetchSortDescriptor(key: key)]
                let error = #expect(throws: FetchRequestError.self) { try context.fetch(request) }
                expect(error, is: code, naming: ["Team", key])
            }
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func resultTypeThatDoesNotMatchTheRequestTypeThrows(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try saveTeams(1, in: stack.container)
        let context = stack.newContext()
        try context.performAndWait { () throws in
            let ids = FetchRequest<ManagedObjectID>(entityName: "Team")
            ids.resultType = .managedObjectResultType
            let idError = #expect(throws: ObjectGraphError.self) { try context.fetch(ids) }
            #expect(idError?.message.contains("ManagedObjectID") == true, "\(String(describing: idError))")

            let teams = Team.fetchRequest()
            teams.resultType = .managedObjectIDResultType
            let teamError = #expect(throws: ObjectGraphError.self) { try context.fetch(teams) }
            #expect(teamError?.message.contains("Team") == true, "\(String(describing: teamError))")

            teams.resultType = .countResultType
            #expect(throws: ObjectGraphError.self) { try context.fetch(teams) }

            // The matching pairs work.
            ids.resultType = .managedObjectIDResultType
            #expect(try context.fetch(ids).count == 1)
            let count = FetchRequest<NSNumber>(entityName: "Team")
            count.resultType = .countResultType
            #expect(try context.fetch(count).first?.intValue == 1)
        }
    }

    /// A request whose type cannot hold its results is a programming error; it must be reported
    /// whether or not anything matches, or it only shows up once the store has data.
    @Test(arguments: StoreKind.withPostgres)
    func resultTypeMismatchIsReportedEvenWithoutResults(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        context.performAndWait {
            let ids = FetchRequest<ManagedObjectID>(entityName: "Team")
            ids.resultType = .managedObjectResultType
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(ids) }
            #expect(error?.code == ObjectGraphError.resultTypeMismatch)
        }
    }

    // MARK: Values of the wrong type or key

    @Test(arguments: StoreKind.withPostgres)
    func refusedAssignmentsFailTheSaveAndWriteNothing(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try saveTeams(1, in: stack.container, named: "Existing")
        let context = stack.newContext()
        context.performAndWait {
            let valid = Team(context: context)
            valid.teamName = "Valid"
            valid.qualifyingZone = "UEFA"
            let team = Team(context: context)
            team.teamName = "Broken"
            team.qualifyingZone = "UEFA"
            team.setValue("lots", forKey: "wins")
            team.setValue(true, forKey: "altitude")
            team.setValue(42, forKey: "imageName")
            let other = Team(context: context)
            other.teamName = "Overflow"
            other.qualifyingZone = "UEFA"
            other.setValue(70_000, forKey: "wins")   // does not fit an Int16
            #expect(team.wins == 0 && other.wins == 0 && team.imageName == nil, "a refused value is not stored")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            let failures = error?.failures ?? []
            #expect(error?.code == ValidationError.multipleErrors)
            #expect(failures.allSatisfy { $0.entityName == "Team" && $0.code == ValidationError.invalidValue }, "\(failures)")
            #expect(failures.compactMap(\.key).sorted() == ["altitude", "imageName", "wins", "wins"], "\(failures)")
            #expect(failures.contains { $0.key == "altitude" && $0.message.contains("altitude") }, "\(failures)")
            #expect(failures.contains { $0.objectID == other.objectID && $0.message.contains("70000") }, "\(failures)")
            for name in ["Team.wins", "Team.altitude", "Team.imageName"] {
                #expect(error?.description.contains(name) == true, "\(String(describing: error))")
            }
        }
        #expect(try teamCount(in: stack.container) == 1, "nothing of the refused save was written")
    }

    @Test(arguments: StoreKind.withPostgres)
    func aSingleRefusedAssignmentHasItsOwnCode(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Broken"
            team.qualifyingZone = "UEFA"
            team.setValue(Date(), forKey: "teamName")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            expect(error, is: ValidationError.invalidValue, naming: ["Team.teamName", "string"])
        }
        #expect(try teamCount(in: stack.container) == 0)
    }

    /// After a refused save the app corrects the value, by key or through the typed property,
    /// and saves again, as it would after any validation error.
    @Test(arguments: StoreKind.withPostgres)
    func correctingARefusedAssignmentLetsTheNextSaveSucceed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        context.performAndWait {
            let byKey = Team(context: context)
            byKey.teamName = "By key"
            byKey.qualifyingZone = "UEFA"
            byKey.setValue("lots", forKey: "wins")
            let typed = Team(context: context)
            typed.teamName = "Typed"
            typed.qualifyingZone = "UEFA"
            typed.setValue("many", forKey: "wins")
            #expect(throws: ValidationError.self) { try context.save() }
            byKey.setValue(4, forKey: "wins")
            typed.wins = 5
            #expect(throws: Never.self) { try context.save() }
        }
        #expect(try teamCount(in: stack.container) == 2)
    }

    @Test func validateValueReportsWithoutStoring() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        context.performAndWait {
            let team = Team(context: context)
            let unknown = #expect(throws: ObjectGraphError.self) { try team.validateValue(1, forKey: "altitude") }
            expect(unknown, is: ObjectGraphError.unknownKey, naming: ["Team", "altitude"])
            let wrongType = #expect(throws: ValidationError.self) { try team.validateValue("lots", forKey: "wins") }
            expect(wrongType, is: ValidationError.invalidValue, naming: ["wins"])
            #expect(throws: Never.self) { try team.validateValue(3, forKey: "wins") }
            #expect(team.wins == 0)
        }
    }

    // MARK: Invalid models

    @Test func inverseNamingAMissingPropertyFailsTheLoad() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Pets.sqlite")
        // Reflection does not resolve inverses; the coordinator reports them when it loads.
        let model = try ManagedObjectModel(managedObjectClasses: [BrokenOwner.self])
        let pets = try container(at: url, model: model)
        let error = #expect(throws: ModelError.self) { try pets.loadPersistentStores() }
        expect(error, is: ModelError.inverseMismatch, naming: ["BrokenOwner.pets", "keeper"])
        #expect(!FileManager.default.fileExists(atPath: url.path), "no store is created for an invalid model")
        // The failure is remembered, not retried into a different outcome.
        let again = #expect(throws: ModelError.self) { try pets.loadPersistentStores() }
        #expect(again?.code == ModelError.inverseMismatch)
    }

    @Test func defaultThatChangesBetweenInstancesIsRefused() throws {
        let error = #expect(throws: ModelError.self) {
            _ = try ManagedObjectModel(managedObjectClasses: [BrokenStamp.self])
        }
        expect(error, is: ModelError.invalidDefaultValue, naming: ["BrokenStamp.created", "awakeFromInsert"])
    }

    @Test func duplicateEntityNamesAreRefused() throws {
        let directory = TemporaryDirectory()
        let reflected = try ManagedObjectModel(managedObjectClasses: [BrokenTwinA.self, BrokenTwinB.self])
        let twins = try container(at: directory.file("Twins.sqlite"), model: reflected)
        let error = #expect(throws: ModelError.self) { try twins.loadPersistentStores() }
        expect(error, is: ModelError.invalidName, naming: ["Twin", "twice"])

        // Built in code, and differing only in case.
        let model = ManagedObjectModel(entities: [EntityDescription(name: "Thing"), EntityDescription(name: "thing")])
        let things = try container(at: directory.file("Things.sqlite"), model: model)
        let caseError = #expect(throws: ModelError.self) { try things.loadPersistentStores() }
        expect(caseError, is: ModelError.invalidName, naming: ["thing", "twice"])
    }

    /// Other code-built mistakes, each reported with its own code and naming the culprit.
    @Test func codeBuiltModelMistakesAreReported() throws {
        let directory = TemporaryDirectory()
        func loadError(_ entities: [EntityDescription], _ name: String) -> ModelError? {
            #expect(throws: ModelError.self) {
                try container(at: directory.file("\(name).sqlite"), model: ManagedObjectModel(entities: entities)).loadPersistentStores()
            }
        }

        let outside = EntityDescription(name: "Outside")
        let tour = EntityDescription(name: "Tour")
        tour.properties = [RelationshipDescription(name: "guide", destination: outside)]
        expect(loadError([tour], "Destination"), is: ModelError.unknownDestination, naming: ["Tour.guide", "Outside"])

        let counter = EntityDescription(name: "Counter")
        counter.properties = [AttributeDescription(name: "value", type: .integer16, defaultValue: "many")]
        expect(loadError([counter], "Default"), is: ModelError.invalidDefaultValue, naming: ["Counter.value", "many"])

        let hidden = EntityDescription(name: "Hidden")
        hidden.properties = [AttributeDescription(name: "_secret", type: .string)]
        expect(loadError([hidden], "Name"), is: ModelError.invalidName, naming: ["_secret"])

        let card = EntityDescription(name: "Card")
        card.properties = [AttributeDescription(name: "rank", type: .integer16)]
        card.indexes = [FetchIndexDescription(name: "bySuit", elements: [FetchIndexElementDescription(propertyName: "suit")])]
        expect(loadError([card], "Index"), is: ModelError.invalidIndex, naming: ["bySuit", "suit"])

        let unnamed = EntityDescription()
        expect(loadError([unnamed], "Unnamed"), is: ModelError.invalidName, naming: ["no name"])
    }
}


@Suite struct NULCharacterTests {
    /// SQLite text is bound as C strings; a NUL would silently cut it short. Every store refuses it.
    @Test(arguments: StoreKind.withPostgres)
    func stringsWithNULAreRefused(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let error = context.performAndWait {
            let item = Item(context: context)
            item.name = "milk\u{0}and honey"
            return #expect(throws: ValidationError.self) { try context.save() }
        }
        #expect(error?.failures.first?.key == "name")
        #expect(error?.description.contains("NUL") == true)
        let fetchError = context.performAndWait {
            context.rollback()
            let request = Item.fetchRequest()
            return #expect(throws: FetchRequestError.self) {
                request.predicate = try FetchPredicate(format: "name == %@", "a\u{0}b")
                _ = try context.fetch(request)
            }
        }
        #expect(fetchError?.code == FetchRequestError.typeMismatch)
    }
}
