import Foundation
import OpenCoreData
import Testing

/// A container on a store that records persistent history, in-memory stores included (they do
/// not by default), with the description adjustable before the store loads.
final class HistoryStack: Sendable {
    let container: PersistentContainer
    let directory: TemporaryDirectory
    let kind: StoreKind
    /// The schema of a `.postgres` stack, shared by its reopened stacks.
    let postgresSchema: PostgresTestSchema?

    var coordinator: PersistentStoreCoordinator { container.persistentStoreCoordinator }
    var storeURL: URL { directory.file("History.sqlite") }

    /// The store as a tool takes it: the SQLite file's path, or the PostgreSQL store's URL.
    var storeArgument: String {
        #if Postgres
        if let postgresSchema { return postgresSchema.storeURL }
        #endif
        return storeURL.path
    }

    init(_ kind: StoreKind = .sqlite, model: ManagedObjectModel? = nil, directory: TemporaryDirectory = TemporaryDirectory(),
         tracking: Bool = true, postgresSchema: PostgresTestSchema? = nil,
         configure: (PersistentStoreDescription) -> Void = { _ in }) throws {
        self.kind = kind
        self.directory = directory
        container = PersistentContainer(name: "History", managedObjectModel: try model ?? Fixtures.model())
        var description = PersistentStoreDescription(url: directory.file("History.sqlite"))
        description.type = kind == .sqlite ? SQLiteStoreType : InMemoryStoreType
        #if Postgres
        self.postgresSchema = kind == .postgres ? try postgresSchema ?? PostgresTestSchema() : nil
        if let schema = self.postgresSchema { description = try schema.description() }
        #else
        self.postgresSchema = nil
        #endif
        description.isPersistentHistoryTrackingEnabled = tracking
        configure(description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
    }

    /// Another container on the same SQLite file, with the same model, as a second program would
    /// open it.
    func reopened(tracking: Bool = true, configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> HistoryStack {
        try HistoryStack(kind, model: container.managedObjectModel, directory: directory, tracking: tracking,
                         postgresSchema: postgresSchema, configure: configure)
    }

    func newContext(author: String? = nil, name: String? = nil) -> ManagedObjectContext {
        let context = container.newBackgroundContext()
        context.transactionAuthor = author
        context.name = name
        return context
    }

    /// Runs a history request on a new context and returns its result's value.
    func run(_ request: PersistentHistoryChangeRequest) throws -> Any? {
        let context = newContext()
        let result = try context.performAndWait { try context.execute(request) }
        let history = try #require(result as? PersistentHistoryResult)
        #expect(history.resultType == request.resultType)
        return history.result
    }

    /// The transactions after a token (every one for nil), with their changes.
    func transactions(after token: PersistentHistoryToken? = nil, filter: (any UntypedFetchRequest)? = nil) throws -> [PersistentHistoryTransaction] {
        let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
        request.fetchRequest = filter
        return try #require(try run(request) as? [PersistentHistoryTransaction])
    }

    func currentToken() throws -> PersistentHistoryToken {
        try #require(try coordinator.currentPersistentHistoryToken(fromStores: nil))
    }

    /// Saves whatever `body` does in a new context, and returns what it returns.
    @discardableResult
    func save<T>(author: String? = nil, name: String? = nil, _ body: (ManagedObjectContext) throws -> T) throws -> T {
        let context = newContext(author: author, name: name)
        return try context.performAndWait {
            let value = try body(context)
            try context.save()
            return value
        }
    }

    /// Inserts a team and saves; returns its ID.
    @discardableResult
    func insertTeam(_ name: String, zone: String = "UEFA", wins: Int16 = 0, author: String? = nil) throws -> ManagedObjectID {
        let context = newContext(author: author)
        return try context.performAndWait {
            let team = Team(context: context)
            team.teamName = name
            team.qualifyingZone = zone
            team.wins = wins
            try context.save()
            return team.objectID
        }
    }
}

extension PersistentHistoryTransaction {
    /// The changes as (type, entity name, object ID) triples, for comparisons.
    var summary: [String] {
        (changes ?? []).map { "\($0.changeType) \($0.changedObjectID.entity.name ?? "?")" }
    }
}

/// Runs `body` and returns the persistent history error it throws, failing if it throws none.
func historyError(_ body: () throws -> Void) -> PersistentHistoryError? {
    do {
        try body()
        Issue.record("expected a PersistentHistoryError")
        return nil
    } catch let error as PersistentHistoryError {
        return error
    } catch {
        Issue.record("expected a PersistentHistoryError, got \(error)")
        return nil
    }
}
