/// A context as a fetched results controller sees it: every operation the controller needs from
/// its context beyond the public API, and the only way it has into the context's, the
/// coordinator's and the objects' inner state.
///
/// The controller hears the context's events (``observe(_:)``), fetches its rows the way the
/// context sees them, and compares rows by their sort keys as the context has seen them: values
/// observers were last told of, and rows the context never loaded read from the store with saves
/// it has not merged yet taken back out. All of that lives here, next to the state it reads, so
/// that the controller (`FetchedResults/`) is a client of its context like any other.
///
/// A plain struct over the context: calls are static, and the per-row operations inline.
struct ResultsSource {
    /// The context, for its public API.
    let context: ManagedObjectContext

    // MARK: Queue and events

    /// Stops the program when called off the context's queue.
    func assertOnQueue(_ function: StaticString = #function) {
        context.assertOnQueue(function)
    }

    /// Calls `handler` synchronously, on the context's queue, for every event of the context.
    func observe(_ handler: @escaping (ContextEvent) -> Void) -> ObserverToken {
        context.addObserver(handler)
    }

    /// The context's router of events to its tracking controllers, made on first use.
    var mergeRouter: MergeRouter {
        if let router = context.mergeRouter { return router }
        let router = MergeRouter(source: self)
        context.mergeRouter = router
        return router
    }

    // MARK: The request

    var managedObjectModel: ManagedObjectModel { context.managedObjectModel }

    /// A request resolved against the model, as the context fetches it.
    func storeFetch<T>(for request: FetchRequest<T>) throws -> StoreFetch {
        try context.storeFetch(for: request)
    }

    /// The identifier of the store the context's objects come from; empty without a coordinator.
    func storeIdentifier() throws -> String {
        try context.persistentStoreCoordinator?.store().identifier ?? ""
    }

    // MARK: Fetching

    /// Merges every commit the store holds that the context has not merged (see
    /// ``ManagedObjectContext/mergeEveryCommitSoFar()``).
    func mergeEveryCommitSoFar() -> Bool {
        context.mergeEveryCommitSoFar()
    }

    /// Whether the context has merged every commit the store holds.
    func hasMergedEveryCommit() -> Bool {
        context.hasMergedEveryCommit()
    }

    /// The rows a fetch selects as the context sees them, in order (see
    /// ``ManagedObjectContext/matchingRows(_:includesPendingChanges:)``).
    func matchingRows(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> StoreFetchResult {
        try context.matchingRows(plan, includesPendingChanges: includesPendingChanges)
    }

    /// A fetch's rows in order, and the number of rows per value of its first sort key, straight
    /// from the store: under one save lock, so that no save of this process falls between the two
    /// queries. Nil when the context does not show what the store has (a child context, or unsaved
    /// changes the fetch includes), or when the store cannot count.
    ///
    /// - Parameter primaryKeys: Whether to ask for the rows' primary keys (a single entity's rows)
    ///   rather than object IDs.
    func storeSections(_ plan: StoreFetch, groupedBy key: ResolvedSortKey, includesPendingChanges: Bool,
                       primaryKeys: Bool) throws -> (counts: [SectionCount], rows: StoreOrderedRows)? {
        guard case .coordinator(let coordinator) = context.parentStore,
              !includesPendingChanges || !context.hasChanges else { return nil }
        return try context.readingStore { try coordinator.withSaveLock { () throws -> ([SectionCount], StoreOrderedRows)? in
            guard let counts = try coordinator.sectionCounts(plan, groupedBy: key) else { return nil }
            if primaryKeys, let keys = try coordinator.primaryKeys(plan) { return (counts, .primaryKeys(keys)) }
            let result = try coordinator.fetch(plan)
            return (counts, result.residual == nil ? .objectIDs(result.ids) : .incomplete)
        } }
    }

    /// Stored rows of objects as a fetch saw them: the parent's view, or the store's when the
    /// fetch leaves pending changes out.
    func storedSnapshots(for ids: [ManagedObjectID], includesPendingChanges: Bool) throws -> [RowSnapshot] {
        if !includesPendingChanges, let coordinator = context.persistentStoreCoordinator {
            return try context.readingStore { try coordinator.snapshots(for: ids) }
        }
        return try context.parentSnapshots(for: ids)
    }

    // MARK: Rows as the context has seen them

    /// Stored rows of objects, with saves committed elsewhere and not merged here yet taken back
    /// out (see ``ManagedObjectContext/snapshotsAsSeen(for:)``).
    func snapshotsAsSeen(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        try context.snapshotsAsSeen(for: ids)
    }

    /// Runs `body` with a reader of stored attributes as the context has seen them, in one read
    /// transaction; nil for a child context (see
    /// ``ManagedObjectContext/readingAttributesAsSeen(of:_:_:)``).
    func readingAttributesAsSeen<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                                    _ body: (_ read: ([ManagedObjectID]) throws -> [[PropertyValue]?]) throws -> T) throws -> T? {
        try context.readingAttributesAsSeen(of: entity, attributes, body)
    }

    /// Whether the context reads a store itself (a root context), rather than a parent context.
    var readsStore: Bool {
        if case .coordinator = context.parentStore { return true }
        return false
    }

    /// The store's generation, read under the save lock, and whether the context has merged every
    /// save committed up to it; nil for a child context.
    func storeGeneration() throws -> (generation: Int64, isSettled: Bool)? {
        guard case .coordinator(let coordinator) = context.parentStore else { return nil }
        return try coordinator.withSaveLock {
            (try coordinator.storeGeneration(), context.unmergedCommits.withLock { $0.isEmpty })
        }
    }

    // MARK: Objects

    /// The registered object with this ID, if it is still alive.
    func registeredObjectIfAlive(for id: ManagedObjectID) -> ManagedObject? {
        context.registeredObjectIfAlive(for: id)
    }

    /// The registered object with this ID if its values are in memory (it is not a fault).
    func loadedObject(for id: ManagedObjectID) -> ManagedObject? {
        guard let object = context.registeredObjectIfAlive(for: id), !object.state.isFault else { return nil }
        return object
    }

    /// The object for a stored row: the registered one, or a fault that fills from the row.
    func object(for snapshot: RowSnapshot) -> ManagedObject {
        context.object(for: snapshot, asFault: true)
    }

    /// Whether reading the object would cost a query of its own: a fault that neither a fetched
    /// row nor a batch of faults fills.
    func needsLoading(_ object: ManagedObject) -> Bool {
        object.state.isFault && object.faultSource == nil
    }

    /// Fills faults from the parent store, all at once, and loads the relationships named for
    /// prefetching.
    func load(_ faults: [ManagedObject], prefetching keyPaths: [String]?) throws {
        for snapshot in try context.parentSnapshots(for: faults.map(\.objectID)) {
            _ = context.object(for: snapshot, asFault: true)
        }
        try context.prefetch(keyPaths, for: faults)
    }
}

/// A fetch's rows in the store's order, as ``ResultsSource/storeSections(_:groupedBy:includesPendingChanges:primaryKeys:)``
/// reads them.
enum StoreOrderedRows {
    case primaryKeys([Int64])
    case objectIDs([ManagedObjectID])
    /// The store left part of the predicate to the caller: the rows are not the fetch's.
    case incomplete
}
