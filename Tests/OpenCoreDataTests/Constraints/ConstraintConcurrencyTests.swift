import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The same token, as Tests/ConstraintTestWriter/main.swift declares it: the writers and the
/// test open one store with their own copies of the model, which must match.
final class Token: ManagedObject {
    @Managed(unique: true) var key: String
    @Managed var writer: String = ""
    @Managed var count: Int64 = 0
}

/// Several writers inserting the same new keys at once must leave one row per key, whatever
/// the interleaving: contexts of one coordinator (serialised by its save lock), coordinators on
/// one store, and processes (serialised by SQLite's write lock, with the check inside the write
/// transaction; on PostgreSQL by the unique index, whose `23505` runs the save again). Each later
/// save resolves by its own policy.
@Suite struct ConstraintConcurrencyTests {
    /// Keys enough that new ones keep coming during the run; every writer draws them in the same
    /// order (one seed), so that writers race to insert each new key.
    static let keys = 60
    static let seed: UInt64 = 7

    /// A container on the store at `location`: an SQLite file's path, or a PostgreSQL URL.
    private static func container(_ location: String) throws -> PersistentContainer {
        let container = PersistentContainer(name: "ConstraintTest", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [Token.self]))
        #if Postgres
        let description = location.hasPrefix("postgres")
            ? try PersistentStoreDescription(postgres: location) : PersistentStoreDescription(url: URL(fileURLWithPath: location))
        #else
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: location))
        #endif
        description.timeout = 30
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Inserts tokens with random keys, `saves` times, one save each round; returns the number of
    /// saves the error policy refused (the others must all succeed).
    private static func write(_ context: ManagedObjectContext, writer: String, saves: Int, seed: UInt64) -> (refused: Int, errors: [String]) {
        var random = SplitMix64(seed: seed)
        var refused = 0
        var errors: [String] = []
        context.performAndWait {
            for save in 0..<saves {
                for _ in 0...Int(random.next() % 3) {
                    let token = Token(context: context)
                    token.key = "k\(random.next() % UInt64(keys))"
                    token.writer = writer
                    token.count = Int64(save)
                }
                do {
                    try context.save()
                } catch let error as ObjectGraphError where error.code == ObjectGraphError.constraintConflict
                    && context.mergePolicy.mergeType == .errorMergePolicyType {
                    refused += 1
                    context.rollback()
                } catch {
                    errors.append("\(writer) save \(save): \(error)")
                    return
                }
                context.reset()
            }
        }
        return (refused, errors)
    }

    /// How many distinct keys a writer's saves draw (every writer draws the same).
    private static func expectedKeys(saves: Int) -> Int {
        var random = SplitMix64(seed: seed)
        var drawn: Set<UInt64> = []
        for _ in 0..<saves {
            for _ in 0...Int(random.next() % 3) { drawn.insert(random.next() % UInt64(keys)) }
        }
        return drawn.count
    }

    /// The keys in the store, checking each has one row.
    private static func storedKeys(_ container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let keys = try context.fetch(Token.fetchRequest()).map(\.key)
            #expect(Set(keys).count == keys.count, "duplicated keys: \(keys.sorted())")
            return keys
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func contextsOfOneCoordinatorLeaveOneRowPerKey(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let stack = try TestStack(kind, model: ManagedObjectModel(managedObjectClasses: [Token.self]), directory: directory)
        let container = stack.container
        let policies: [MergePolicy] = [.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .error]
        let results = Locked<[(refused: Int, errors: [String])]>([])
        DispatchQueue.concurrentPerform(iterations: policies.count) { index in
            let context = container.newBackgroundContext()
            context.mergePolicy = policies[index]
            let result = Self.write(context, writer: "w\(index)", saves: 80, seed: Self.seed)
            results.withLock { $0.append(result) }
        }
        let all = results.withLock { $0 }
        #expect(all.flatMap(\.errors).isEmpty, "\(all.flatMap(\.errors))")
        #expect(all.contains { $0.refused > 0 }, "the error policy's writer never met another's key: the test proved little")
        #expect(try Self.storedKeys(container).count == Self.expectedKeys(saves: 80))
    }

    /// Where a test's writers meet: a new SQLite file, or a new PostgreSQL schema (kept alive by
    /// the returned schema).
    private static func sharedStore(_ kind: StoreKind, _ directory: TemporaryDirectory) throws -> (location: String, schema: PostgresTestSchema?) {
        #if Postgres
        if kind == .postgres {
            let schema = try PostgresTestSchema()
            return (schema.storeURL, schema)
        }
        #endif
        return (directory.file("Tokens.sqlite").path, nil)
    }

    @Test(arguments: StoreKind.sqlStores)
    func coordinatorsOnOneStoreLeaveOneRowPerKey(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let store = try Self.sharedStore(kind, directory)
        let containers = try (0..<3).map { _ in try Self.container(store.location) }
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: containers.count) { index in
            let context = containers[index].newBackgroundContext()
            context.mergePolicy = index == 1 ? .mergeByPropertyStoreTrump : .mergeByPropertyObjectTrump
            let result = Self.write(context, writer: "c\(index)", saves: 80, seed: Self.seed)
            errors.withLock { $0 += result.errors }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
        #expect(try Self.storedKeys(containers[0]).count == Self.expectedKeys(saves: 80))
        withExtendedLifetime(store.schema) {}
    }

    @Test(arguments: StoreKind.sqlStores)
    func processesOnOneStoreLeaveOneRowPerKey(kind: StoreKind) async throws {
        let writer = try #require(CrashHarness.searchedDirectories.map { $0.appendingPathComponent("ConstraintTestWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "ConstraintTestWriter was not found next to the test binary; build it with `swift build --build-tests`")
        let directory = TemporaryDirectory()
        let store = try Self.sharedStore(kind, directory)
        // Made first, so that the writers do not race to create the store.
        let container = try Self.container(store.location)
        let policies = ["objectTrump", "storeTrump", "overwrite"]
        let processes = try policies.enumerated().map { index, policy in
            let process = Process()
            process.executableURL = writer
            process.arguments = [store.location, "p\(index)", "\(Self.keys)", "80", "\(Self.seed)", policy]
            let error = Pipe()
            process.standardError = error
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return (process, OutputCollector(error.fileHandleForReading))
        }
        // This process writes too, meanwhile.
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        let local = Self.write(context, writer: "local", saves: 80, seed: Self.seed)
        #expect(local.errors.isEmpty, "\(local.errors)")
        for (process, errors) in processes {
            while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            await errors.waitForEnd(timeout: .seconds(5))
            #expect(process.terminationStatus == 0, "a writer failed: \(errors.text)")
        }
        let keys = try Self.storedKeys(container)
        #expect(keys.count == Self.expectedKeys(saves: 80))
        if kind == .sqlite {
            #expect(try SQLiteIntegrity.check(path: store.location) == "ok")
        }
        withExtendedLifetime(store.schema) {}
    }
}
