import Foundation
import OpenCoreData
import Testing

/// The stores the behaviour tests run against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case inMemory
    #if Postgres
    /// A schema of its own on the PostgreSQL server of `OCD_POSTGRES_URL`.
    case postgres
    #endif

    /// The stores every parameterised suite runs on. Suites add PostgreSQL one by one
    /// (``withPostgres``) as the PostgreSQL store gains what they test (Docs/PostgresStore.md).
    static var allCases: [StoreKind] { [.sqlite, .inMemory] }

    /// ``allCases`` and, with the `Postgres` trait, PostgreSQL.
    static var withPostgres: [StoreKind] {
        #if Postgres
        allCases + [.postgres]
        #else
        allCases
        #endif
    }

    /// The SQL stores: SQLite, and PostgreSQL with the `Postgres` trait.
    static var sqlStores: [StoreKind] {
        withPostgres.filter { $0 != .inMemory }
    }

    var testDescription: String { rawValue }
}

/// A directory removed when the test that made it ends.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenCoreDataTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A container on a fresh store, with helpers for running code on its contexts.
final class TestStack: Sendable {
    let container: PersistentContainer
    let directory: TemporaryDirectory
    let kind: StoreKind
    /// The schema of a `.postgres` stack, shared by its reopened stacks.
    let postgresSchema: PostgresTestSchema?

    var storeURL: URL { directory.file("Test.sqlite") }

    /// The store as a tool takes it on its command line: the SQLite file's path, or the
    /// PostgreSQL store's URL.
    var storeArgument: String {
        #if Postgres
        if let postgresSchema { return postgresSchema.storeURL }
        #endif
        return storeURL.path
    }

    /// What the store logs, SQL included, when made with `recordingSQL: true`.
    let log: LogRecorder?

    /// - Parameter storeType: A store type registered by the tests (see ``FailingReads``) instead
    ///   of the kind's.
    init(_ kind: StoreKind = .sqlite, model: ManagedObjectModel? = nil, directory: TemporaryDirectory = TemporaryDirectory(),
         recordingSQL: Bool = false, storeType: String? = nil, postgresSchema: PostgresTestSchema? = nil) throws {
        self.kind = kind
        self.directory = directory
        container = PersistentContainer(name: "Test", managedObjectModel: try model ?? Fixtures.model())
        var description = PersistentStoreDescription(url: directory.file("Test.sqlite"))
        description.type = storeType ?? (kind == .sqlite ? SQLiteStoreType : InMemoryStoreType)
        #if Postgres
        self.postgresSchema = kind == .postgres ? try postgresSchema ?? PostgresTestSchema() : nil
        if let schema = self.postgresSchema { description = try schema.description() }
        #else
        self.postgresSchema = nil
        #endif
        log = recordingSQL ? LogRecorder() : nil
        description.logger = log?.logger()
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
    }

    /// A new container on the same SQLite file (or PostgreSQL schema), as a relaunched app would
    /// open it.
    func reopened(model: ManagedObjectModel? = nil) throws -> TestStack {
        try TestStack(kind, model: model, directory: directory, postgresSchema: postgresSchema)
    }

    func newContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}

extension ManagedObjectContext {
    /// Fetches every object of a class's entity, ordered by key.
    func all<T: ManagedObject>(_ type: T.Type, sortedBy key: String? = nil) throws -> [T] {
        let request = T.fetchRequest()
        if let key { request.sortDescriptors = [FetchSortDescriptor(key: key)] }
        return try fetch(request)
    }
}
