public import Foundation

/// Connects contexts to a store: Core Data's `NSPersistentStoreCoordinator`. It loads the store
/// for a model, routes reads and saves to it, and tells other contexts about saves.
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
/// let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
/// context.persistentStoreCoordinator = coordinator
/// ```
///
/// A coordinator holds one store.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// The model of the objects the coordinator's store holds.
    public let managedObjectModel: ManagedObjectModel

    private struct State: @unchecked Sendable {
        var stores: [PersistentStore] = []
        var contexts: [WeakContext] = []
        /// Commits to the store made elsewhere reach the contexts through it.
        var feed: StoreChangeFeed?
    }

    private let state = Locked(State())
    /// Held by a root context from its first save attempt until its save is written (conflict
    /// resolution included), so that saves of this process never race each other.
    private let saveLock = NSRecursiveLock()
    /// The store generation up to which the contexts have been given every commit (see
    /// ``StoreChangeFeed``). Read and written only under the save lock.
    var storeCursor: Int64 = 0

    /// Creates a coordinator for a model. The model is checked when the first store is added.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    deinit {
        // The feed's file watch goes with its last coordinator.
        for store in persistentStores { storeChangeFeed?.unsubscribe(store) }
    }

    /// The loaded stores (one at most).
    public var persistentStores: [PersistentStore] {
        state.withLock { $0.stores }
    }

    /// Loads a store.
    ///
    /// - Parameters:
    ///   - type: ``PersistentStore/StoreType/sqlite`` or ``PersistentStore/StoreType/inMemory``.
    ///   - configuration: Must be nil or `"Default"`.
    ///   - url: The SQLite file; ignored for in-memory stores.
    ///   - options: Store options; see ``PersistentStoreDescription``. As in Core Data, a store
    ///     that needs migrating is migrated only when the options say so: pass
    ///     ``MigratePersistentStoresAutomaticallyOption`` and ``InferMappingModelAutomaticallyOption``
    ///     as true.
    /// - Returns: The loaded store.
    /// - Throws: ``ModelError`` if the model is invalid; ``PersistentStoreError`` if the store cannot be
    ///   opened, is not a database, or was made by an incompatible model.
    @discardableResult
    public func addPersistentStore(type: PersistentStore.StoreType, configuration: String? = nil,
                                   at url: URL?, options: [String: any Sendable]? = nil) throws -> PersistentStore {
        let description = PersistentStoreDescription()
        description.type = type.rawValue
        description.url = url
        description.configuration = configuration
        // Core Data migrates a store added this way only when the options ask for it.
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        for (key, value) in options ?? [:] { description.setOption(value, forKey: key) }
        return try addPersistentStore(with: description)
    }

    /// Loads the store a description describes, calling `completionHandler` with the outcome
    /// (synchronously, before returning).
    public func addPersistentStore(with description: PersistentStoreDescription,
                                   completionHandler: (PersistentStoreDescription, (any Error)?) -> Void) {
        do {
            try addPersistentStore(with: description)
            completionHandler(description, nil)
        } catch {
            completionHandler(description, error)
        }
    }

    /// Loads the store a description describes.
    ///
    /// - Throws: As ``addPersistentStore(type:configuration:at:options:)``.
    @discardableResult
    public func addPersistentStore(with description: PersistentStoreDescription) throws -> PersistentStore {
        try managedObjectModel.compile()
        try managedObjectModel.checkValueTransformers()
        // The SQLite store's naming rules hold for every store, so that a model that works in
        // memory also works in a file.
        try SQLiteSchema.validate(managedObjectModel)
        if let configuration = description.configuration, configuration != "Default" {
            throw PersistentStoreError(PersistentStoreError.unsupportedConfiguration, "model configurations are not supported (asked for '\(configuration)')")
        }
        guard persistentStores.isEmpty else {
            throw PersistentStoreError(PersistentStoreError.unsupportedConfiguration, "a coordinator holds one store; this one already has \(persistentStores[0])")
        }
        try runStagedMigration(of: description)
        let type = PersistentStore.StoreType(rawValue: description.type)
        let backend = try Self.makeBackend(for: description)
        let identifier: String
        do {
            identifier = try backend.load(model: managedObjectModel)
        } catch {
            backend.close()
            throw error
        }
        let store = PersistentStore(type: type, url: type == .inMemory ? nil : backend.redactedURL ?? description.url, identifier: identifier,
                                    isReadOnly: description.isReadOnly, backend: backend)
        state.withLock { $0.stores.append(store) }
        storeWasAdded(store, description: description)
        (description.logger ?? Log.store).debug("loaded \(store)")
        return store
    }

    /// Closes and removes a store. Contexts must not use its objects afterwards.
    public func remove(_ store: PersistentStore) throws {
        let removed = state.withLock { state -> Bool in
            let count = state.stores.count
            state.stores.removeAll { $0 === store }
            return state.stores.count != count
        }
        guard removed else {
            throw PersistentStoreError(PersistentStoreError.noStore, "\(store) is not a store of this coordinator")
        }
        RemoteChangeCenter.shared.unregister(store)
        storeWasRemoved(store)
        store.backend.close()
    }

    /// The store loaded from `url`, if any.
    public func persistentStore(for url: URL) -> PersistentStore? {
        persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    /// The object ID a URI from ``ManagedObjectID/uriRepresentation()`` names, or nil if the URI
    /// does not name an object of this coordinator's store and model.
    public func managedObjectID(forURIRepresentation url: URL) -> ManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host, !host.isEmpty,
              let store = persistentStores.first(where: { $0.identifier == host }) else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()), key > 0,
              let entity = managedObjectModel.compiledEntity(named: String(parts[0])) else { return nil }
        return ManagedObjectID(entity: entity, storeIdentifier: store.identifier, primaryKey: key)
    }
}

// MARK: - Store types

extension PersistentStoreCoordinator {
    /// Makes a store's backend from its description.
    package typealias BackendMaker = @Sendable (PersistentStoreDescription) throws -> any PersistentStoreBackend

    /// Store types beyond SQLite and in-memory, by type name: other modules' stores, and tests'
    /// stores that wrap a real one to inject faults.
    private static let registeredStoreTypes = Locked<[String: BackendMaker]>([:])

    /// A new backend for the store a description describes, of a built-in or registered type.
    package static func makeBackend(for description: PersistentStoreDescription) throws -> any PersistentStoreBackend {
        switch PersistentStore.StoreType(rawValue: description.type) {
        case .sqlite:
            guard let url = description.url else {
                throw PersistentStoreError(PersistentStoreError.cannotOpen, "an SQLite store needs a URL; set PersistentStoreDescription.url")
            }
            return try SQLiteStoreBackend(url: url, description: description)
        case .inMemory:
            return InMemoryStoreBackend(historySettings: PersistentHistorySettings(description: description, recordsByDefault: false))
        default:
            guard let makeBackend = registeredStoreTypes.withLock({ $0[description.type] }) else {
                throw PersistentStoreError(PersistentStoreError.unknownStoreType, "unknown store type '\(description.type)'; use SQLiteStoreType or InMemoryStoreType")
            }
            return try makeBackend(description)
        }
    }

    /// Lets ``addPersistentStore(with:)`` open stores of `type` with `makeBackend`.
    package static func registerStoreType(_ type: String, makeBackend: @escaping BackendMaker) {
        registeredStoreTypes.withLock { $0[type] = makeBackend }
    }
}

// MARK: - Routing to the store

extension PersistentStoreCoordinator {
    func store() throws -> PersistentStore {
        guard let store = persistentStores.first else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the coordinator has no loaded store; call loadPersistentStores() first")
        }
        return store
    }

    /// The store, unless it is read-only.
    func writableStore() throws -> PersistentStore {
        let store = try store()
        guard !store.isReadOnly else {
            throw PersistentStoreError(PersistentStoreError.readOnly, "the store is read-only", url: store.url)
        }
        return store
    }

    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        guard !ids.isEmpty else { return [] }
        let store = try store()
        return try store.backend.snapshots(for: ids.filter { $0.store == store.tag })
    }

    func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]] {
        try store().backend.relatedObjectIDs(of: ids, through: relationship)
    }

    func fetch(_ plan: StoreFetch) throws -> StoreFetchResult {
        try store().backend.fetch(plan)
    }

    func primaryKeys(_ plan: StoreFetch) throws -> [Int64]? {
        try store().backend.primaryKeys(plan)
    }

    func count(_ plan: StoreFetch) throws -> Int? {
        try store().backend.count(plan)
    }

    func aggregate(_ fetch: StoreAggregateFetch) throws -> [[PropertyValue]]? {
        try store().backend.aggregate(fetch)
    }

    func sectionCounts(_ plan: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]? {
        try store().backend.sectionCounts(plan, groupedBy: key)
    }

    /// The store's generation: it changes with every committed save, by any process.
    func storeGeneration() throws -> Int64 {
        try store().backend.generation()
    }

    func withSaveLock<T>(_ body: () throws -> T) rethrows -> T {
        saveLock.lock()
        defer { saveLock.unlock() }
        return try body()
    }

    func save(_ request: SaveRequest) throws -> SaveOutcome {
        let store = try writableStore()
        let outcome = try store.backend.save(request)
        reportCommit(outcome, of: store)
        return outcome
    }

    /// Tells the change feed and the remote change notification of a write of the store, if it
    /// committed. Called under the save lock.
    func reportCommit(_ outcome: SaveOutcome, of store: PersistentStore) {
        if case .committed(_, _, let generations, _) = outcome { storeCommitted(generations) }
        storeDidCommit(store, outcome)
    }

    /// Permanent IDs for temporary ones, reserving primary keys in the store.
    func permanentIDs(for ids: [ManagedObjectID]) throws -> IDMapping {
        let store = try store()
        return try IDMapping.allocating(for: ids, storeIdentifier: store.identifier) { root, count in
            try store.backend.allocatePrimaryKeys(for: root, count: count)
        }
    }

    // MARK: Contexts

    func register(_ context: ManagedObjectContext) {
        state.withLock { state in
            state.contexts.removeAll { $0.context == nil }
            state.contexts.append(WeakContext(context: context))
        }
    }

    /// The root contexts that merge commits made elsewhere.
    var automaticallyMergingContexts: [ManagedObjectContext] {
        state.withLock { $0.contexts.compactMap(\.context) }.filter(\.automaticallyMergesChangesFromParent)
    }

    /// The feed of the loaded store's commits.
    var storeChangeFeed: StoreChangeFeed? {
        get { state.withLock { $0.feed } }
        set { state.withLock { $0.feed = newValue } }
    }

    /// A root context committed a save: other root contexts that merge automatically hear of it
    /// now, and merge it on their queues, in commit order. Called under the save lock.
    func announce(_ changes: SavedChanges) {
        let contexts = state.withLock { $0.contexts.compactMap(\.context) }
        for context in contexts where ObjectIdentifier(context) != changes.source && context.automaticallyMergesChangesFromParent {
            context.saveWasAnnounced(changes)
        }
    }
}

extension PersistentStoreCoordinator {
    /// Reads stored attributes of many rows by key in one read transaction (see
    /// ``PersistentStoreBackend/readingAttributes(of:_:_:)``).
    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T {
        try store().backend.readingAttributes(of: entity, attributes, body)
    }
}
