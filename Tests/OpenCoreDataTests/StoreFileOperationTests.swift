import Foundation
import GRDB
import OpenCoreData
import Testing

/// The coordinator's whole-store operations on SQLite files: destroy, replace, migrate.
@Suite struct StoreFileOperationTests {
    final class Note: ManagedObject {
        @Managed var text: String
    }

    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: [Note.self])
    }

    /// A coordinator with a store at `url` holding notes with `texts`.
    private static func store(at url: URL, model: ManagedObjectModel, texts: [String]) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for text in texts { Note(context: context).text = text }
            try context.save()
        }
        return coordinator
    }

    private static func texts(in coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.all(Note.self, sortedBy: "text").map(\.text)
        }
    }

    private static func texts(at url: URL, model: ManagedObjectModel) throws -> [String] {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        defer { try? coordinator.remove(store) }
        return try texts(in: coordinator)
    }

    @Test func destroyingALoadedStoreLeavesAFreshOne() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let model = try Self.model()
        let coordinator = try Self.store(at: url, model: model, texts: ["a", "b"])
        try coordinator.destroyPersistentStore(at: url, type: .sqlite)
        #expect(coordinator.persistentStores.isEmpty)
        // Core Data's reset: destroy, then add the store again.
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        #expect(try Self.texts(in: coordinator).isEmpty)

        // Nothing to destroy is no error, and in-memory stores have nothing to destroy.
        try coordinator.destroyPersistentStore(at: directory.file("Missing.sqlite"), ofType: SQLiteStoreType)
        try coordinator.destroyPersistentStore(at: directory.file("Memory"), type: .inMemory)
    }

    @Test func destroyingSomeoneElsesDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Other.sqlite")
        let database = try DatabaseQueue(path: url.path)
        try database.write { try $0.execute(sql: "CREATE TABLE ledger (amount INTEGER); INSERT INTO ledger VALUES (42)") }
        try database.close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let error = #expect(throws: PersistentStoreError.self) {
            try coordinator.destroyPersistentStore(at: url, type: .sqlite)
        }
        #expect(error?.code == PersistentStoreError.invalidStoreFile)
        let kept = try DatabaseQueue(path: url.path)
        #expect(try kept.read { try Int.fetchOne($0, sql: "SELECT amount FROM ledger") } == 42)
        try kept.close()
    }

    @Test func replacingCopiesTheSourceOverTheDestination() throws {
        let directory = TemporaryDirectory()
        let model = try Self.model()
        let source = directory.file("Backup.sqlite")
        let destination = directory.file("Live.sqlite")
        let sourceCoordinator = try Self.store(at: source, model: model, texts: ["kept", "restored"])
        let liveCoordinator = try Self.store(at: destination, model: model, texts: ["lost"])

        // A destination this coordinator has loaded must be removed first.
        let error = #expect(throws: PersistentStoreError.self) {
            try liveCoordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        }
        #expect(error?.message.contains("remove it with remove(_:) first") == true, "\(String(describing: error))")
        try liveCoordinator.remove(try #require(liveCoordinator.persistentStores.first))

        // The source stays open and in use while it is copied.
        try liveCoordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        #expect(try Self.texts(at: destination, model: model) == ["kept", "restored"])
        #expect(try Self.texts(in: sourceCoordinator) == ["kept", "restored"])

        let missing = #expect(throws: PersistentStoreError.self) {
            try liveCoordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: directory.file("None.sqlite"), type: .sqlite)
        }
        #expect(missing?.code == PersistentStoreError.cannotOpen)
        #expect(throws: PersistentStoreError.self) {
            try liveCoordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .inMemory)
        }
    }

    @Test func migratingMovesTheStoreAndKeepsObjectIDs() throws {
        let directory = TemporaryDirectory()
        let model = try Self.model()
        let oldURL = directory.file("Old.sqlite")
        let newURL = directory.file("Shared/New.sqlite")
        let coordinator = try Self.store(at: oldURL, model: model, texts: ["first"])
        let store = try #require(coordinator.persistentStores.first)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let firstID = try context.performAndWait { try #require(try context.all(Note.self).first).objectID }

        let moved = try coordinator.migratePersistentStore(store, to: newURL, type: .sqlite)
        #expect(coordinator.persistentStores.map(\.url) == [newURL])
        #expect(moved.identifier == store.identifier)
        try context.performAndWait {
            // The same IDs name the same objects in the moved store; new saves go there.
            #expect((try context.existingObject(with: firstID) as? Note)?.text == "first")
            Note(context: context).text = "second"
            try context.save()
        }
        #expect(try Self.texts(in: coordinator) == ["first", "second"])
        #expect(try Self.texts(at: oldURL, model: model) == ["first"])

        // The moved store cannot go where a store already is.
        let occupied = #expect(throws: PersistentStoreError.self) {
            try coordinator.migratePersistentStore(moved, to: oldURL, type: .sqlite)
        }
        #expect(occupied?.code == PersistentStoreError.cannotOpen)
        #expect(coordinator.persistentStores.first === moved)
    }
}
