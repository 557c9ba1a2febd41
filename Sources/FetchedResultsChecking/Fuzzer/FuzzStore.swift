import Foundation
import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif

/// Which store a fuzz run saves its cards to.
public enum FuzzStoreKind: String, Sendable, CaseIterable {
    case sqlite
    case inMemory
    #if Postgres
    /// A schema of the run's own on the PostgreSQL server of `OCD_POSTGRES_URL`.
    case postgres
    #endif
}

/// A container holding only cards, on a fresh store in its own temporary directory, which goes
/// when the store does. Each run gets its own, so runs can go on side by side.
final class FuzzStore: Sendable {
    let container: PersistentContainer
    private let directory: URL
    #if Postgres
    private let postgresSchema: ScratchPostgresSchema?
    #endif

    /// A fresh store of `kind`; a PostgreSQL one on `postgresServer` when given, else on the
    /// server of `OCD_POSTGRES_URL`.
    init(_ kind: FuzzStoreKind, postgresServer: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("FetchedResultsFuzz-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        container = PersistentContainer(name: "Cards", managedObjectModel: try ManagedObjectModel(managedObjectClasses: [Card.self]))
        var description = PersistentStoreDescription(url: directory.appendingPathComponent("Cards.sqlite"))
        description.type = kind == .sqlite ? SQLiteStoreType : InMemoryStoreType
        #if Postgres
        postgresSchema = kind == .postgres ? try postgresServer.map(ScratchPostgresSchema.init(server:)) ?? ScratchPostgresSchema() : nil
        if let postgresSchema { description = try postgresSchema.description() }
        #endif
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
    }

    /// Where another process opens the store: the SQLite file's path, or the PostgreSQL store's
    /// URL; nil in memory.
    var storeLocation: String? {
        #if Postgres
        if let postgresSchema { return postgresSchema.storeURL }
        #endif
        return container.persistentStoreDescriptions.first.flatMap { $0.type == SQLiteStoreType ? $0.url?.path : nil }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A private-queue context that merges the other contexts' saves, newest values winning.
    func newContext(named name: String) -> ManagedObjectContext {
        let context = container.newBackgroundContext()
        context.name = name
        context.automaticallyMergesChangesFromParent = true
        context.mergePolicy = .mergeByPropertyObjectTrump
        return context
    }
}
