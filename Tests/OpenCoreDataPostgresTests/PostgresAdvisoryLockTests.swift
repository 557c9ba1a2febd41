#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import Testing

/// `withPostgresAdvisoryLock(named:)`: holders on any coordinator of the store take turns, a
/// check and the save that depends on it are one step for every holder, a holder that throws
/// releases it, and a store of another type is refused.
@Suite struct PostgresAdvisoryLockTests {
    /// When each holder had the lock.
    private final class Turns: @unchecked Sendable {
        private let lock = NSLock()
        private var spans: [(start: UInt64, end: UInt64)] = []

        func record(_ start: UInt64, _ end: UInt64) { lock.withLock { spans.append((start, end)) } }

        /// The pairs of turns that overlapped.
        var overlaps: Int {
            let sorted = lock.withLock { spans.sorted { $0.start < $1.start } }
            return zip(sorted, sorted.dropFirst()).filter { $1.start < $0.end }.count
        }

        var count: Int { lock.withLock { spans.count } }
    }

    private static func store(of container: PersistentContainer) throws -> PersistentStore {
        try #require(container.persistentStoreCoordinator.persistentStores.first)
    }

    @Test(.timeLimit(.hang))
    func holdersOnTwoCoordinatorsTakeTurns() async throws {
        let store = try SaveTestStore(.postgres)
        let stores = try [store.container(), store.container()].map(Self.store)
        let turns = Turns()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for holder in 0..<8 {
                group.addTask {
                    try await stores[holder % 2].withPostgresAdvisoryLock(named: "turns") {
                        let start = DispatchTime.now().uptimeNanoseconds
                        try await Task.sleep(for: .milliseconds(20))
                        turns.record(start, DispatchTime.now().uptimeNanoseconds)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(turns.count == 8)
        #expect(turns.overlaps == 0)
    }

    @Test(.timeLimit(.hang))
    func aCheckAndItsSaveAreOneStepOnEveryCoordinator() async throws {
        let store = try SaveTestStore(.postgres)
        let containers = try [store.container(), store.container()]
        let stores = try containers.map(Self.store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<10 {
                let context = containers[writer % 2].newBackgroundContext()
                group.addTask {
                    try await stores[writer % 2].withPostgresAdvisoryLock(named: "labels") {
                        try await context.perform {
                            let request = FetchRequest<ManagedObject>(entityName: "Node")
                            request.predicate = try FetchPredicate(format: "label == 'only'")
                            guard try context.count(for: request) == 0 else { return }
                            let node = try EntityDescription.insertNewObject(forEntityName: "Node", into: context)
                            node.setValue("only", forKey: "label")
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = try store.container().newBackgroundContext()
        let count = try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Node")
            request.predicate = try FetchPredicate(format: "label == 'only'")
            return try reader.count(for: request)
        }
        #expect(count == 1)
    }

    struct Refused: Error {}

    @Test(.timeLimit(.hang))
    func aHolderThatThrowsReleasesTheLock() async throws {
        let store = try SaveTestStore(.postgres)
        let stores = try [store.container(), store.container()].map(Self.store)
        await #expect(throws: Refused.self) {
            try await stores[0].withPostgresAdvisoryLock(named: "released") { throw Refused() }
        }
        // The other coordinator's connection gets the lock: the first session let it go.
        let value = try await stores[1].withPostgresAdvisoryLock(named: "released") { 42 }
        #expect(value == 42)
    }

    @Test func aStoreOfAnotherTypeIsRefused() async throws {
        let store = try SaveTestStore(.sqlite)
        let sqlite = try Self.store(of: store.container())
        do {
            _ = try await sqlite.withPostgresAdvisoryLock(named: "any") { 1 }
            Issue.record("an SQLite store took a PostgreSQL lock")
        } catch let error as PersistentStoreError {
            #expect(error.code == PersistentStoreError.unknownStoreType)
            #expect(error.message.contains("needs a PostgreSQL store"))
        }
    }
}
#endif
