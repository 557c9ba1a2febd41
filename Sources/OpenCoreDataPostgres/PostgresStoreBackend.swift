#if Postgres
package import Foundation
import Logging
package import OpenCoreData
import PostgresNIO

/// The PostgreSQL store: ``PostgreSQLStoreType``, on the store's own pool of postgres-nio
/// connections (``PostgresConnectionPool``), each call blocking its caller until the server
/// answers (Docs/PostgresStore.md, "Threading").
///
/// Built in the steps of Docs/PostgresStore.md's work plan. It creates the store in its
/// PostgreSQL schema, checks that the model may open it, migrates it
/// (`PostgresStoreBackend+Load.swift`), reserves primary keys, reads the store generation, saves
/// (`+Save`, `+Constraints`, `+Commit`) with its persistent history (`+History`), reads objects
/// and to-many relationships by key (`+Read`), fetches, counts and counts sections (`+Fetch`,
/// `+Sections`, `+Attributes`, with the predicate compiled by ``PostgresDialect``), writes batch
/// inserts and set-based batch updates (`+BatchInsert`, `+BatchUpdate`), and wakes the change
/// feed when other servers commit (``PostgresCommitListener``).
package final class PostgresStoreBackend: PersistentStoreBackend, ModelVersionChecking, @unchecked Sendable {
    package let url: PostgresStoreURL
    package let description: PersistentStoreDescription
    package let pool: PostgresConnectionPool
    let log: Logger
    /// Where each read statement is logged, at trace level (the SQLite store's `OpenCoreData.sql`).
    let sqlLog: Logger
    /// Whether saves are recorded in the persistent history (by default they are, as on
    /// SQLite), and how long it is kept (`+History`).
    package let historySettings: PersistentHistorySettings
    /// When this backend applies the history's retention rule in a save.
    let historyPruneSchedule = HistoryPruneSchedule()

    /// What loading established; read by every operation afterwards.
    package struct Loaded: Sendable {
        package let identifier: String
        /// ``identifier`` as the tag of the IDs its rows decode to.
        package let tag: StoreTag
        package let schema: PostgresSchema
        package let codes: [String: Int64]
        /// The entities of the store's rows, by the code in their `_entity` column.
        package let entityByCode: [Int64: EntityDescription]
        /// The codes of ``entityByCode``, by entity.
        let codeByEntity: [ObjectIdentifier: Int64]

        init(identifier: String, schema: PostgresSchema, codes: [String: Int64]) {
            self.identifier = identifier
            tag = StoreTag(identifier)
            self.schema = schema
            self.codes = codes
            var entityByCode: [Int64: EntityDescription] = [:]
            for table in schema.tables {
                for entity in table.root.selfAndDescendants {
                    if let code = codes[entity.entityName] { entityByCode[code] = entity }
                }
            }
            self.entityByCode = entityByCode
            codeByEntity = Dictionary(entityByCode.map { (ObjectIdentifier($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        }

        /// The store's code of an entity (0 for one the store does not know, which no row has).
        func code(of entity: EntityDescription) -> Int64 {
            codeByEntity[ObjectIdentifier(entity)] ?? 0
        }
    }

    // Guarded by `lock` (hence `@unchecked Sendable`).
    private let lock = NSLock()
    private var loadedState: Loaded?
    private var commitHookState: (@Sendable (PooledConnection) throws -> Void)?

    /// For tests of the commit-in-doubt path (`+Commit`): runs on a save's connection right
    /// before its `COMMIT`, as a connection drop there would.
    package var commitHook: (@Sendable (PooledConnection) throws -> Void)? {
        get { lock.withLock { commitHookState } }
        set { lock.withLock { commitHookState = newValue } }
    }

    /// Makes the backend of the store a description names; connects to nothing yet.
    ///
    /// - Throws: ``PersistentStoreError/invalidStoreURL`` for a URL that is missing or wrong.
    package init(description: PersistentStoreDescription) throws {
        guard let storeURL = description.url else {
            throw PersistentStoreError(
                PersistentStoreError.invalidStoreURL,
                "A PostgreSQL store needs a URL: use PersistentStoreDescription(postgres:), or set url to postgres://user:password@host:port/database")
        }
        url = try PostgresStoreURL(storeURL.absoluteString)
        self.description = description
        log = description.logger ?? Logger(label: "OpenCoreData.store")
        sqlLog = description.logger ?? Logger(label: "OpenCoreData.sql")
        pool = try PostgresConnectionPool(url: url, timeout: description.timeout, readOnly: description.isReadOnly)
        historySettings = PersistentHistorySettings(description: description, recordsByDefault: true)
    }

    package var redactedURL: URL? {
        // The redacted form is made of percent-encoded parts and a checked host, so it parses.
        URL(string: url.redacted) ?? URL(string: "postgres://redacted")
    }

    package var errorURL: URL? { redactedURL }

    package var loaded: Loaded {
        get throws {
            guard let loaded = lock.withLock({ loadedState }) else {
                throw PersistentStoreError(PersistentStoreError.noStore, "the store is not loaded", url: errorURL)
            }
            return loaded
        }
    }

    func setLoaded(_ loaded: Loaded) {
        lock.withLock { loadedState = loaded }
    }

    package func close() {
        pool.close()
    }

    // MARK: What works already

    package func generation() throws -> Int64 {
        let schema = try loaded.schema
        let rows = try pool.query(
            PostgresQuery(unsafeSQL: "SELECT \"value\" FROM \(schema.qualified(PostgresSchema.generationTable))"),
            retryingIfLost: true)
        return try rows.first?.decode(Int64.self) ?? 0
    }

    /// Keys from the hierarchy's sequence: `nextval` is atomic across sessions and never rolled
    /// back, so two servers never get the same key.
    package func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        guard count > 0 else { return [] }
        let schema = try loaded.schema
        guard let table = schema.layout.table(for: entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for entity \(entity.entityName)", url: errorURL)
        }
        let sequence = schema.qualified(schema.sequenceName(of: table))
        let rows = try pool.query("SELECT nextval(\(sequence)::regclass) FROM generate_series(1, \(count))")
        return try rows.map { try $0.decode(Int64.self) }
    }
}
#endif
