import Foundation

extension ManagedObjectContext {
    /// Runs a fetch request: the objects (or IDs, dictionaries, count) that the request selects,
    /// in its order, reflecting this context's unsaved changes unless
    /// ``FetchRequest/includesPendingChanges`` is false.
    ///
    /// ```swift
    /// let request = Team.fetchRequest()
    /// request.predicate = try FetchPredicate(format: "qualifyingZone == %@", "UEFA")
    /// request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false)]
    /// let teams = try context.fetch(request)
    /// ```
    ///
    /// With a ``FetchRequest/fetchBatchSize``, the fetch reads only IDs and returns faults;
    /// reading an object loads its whole batch in one query, so counting or indexing the array
    /// reads nothing. ``fetchLazily(_:)`` does not even create the objects until they are read.
    ///
    /// - Complexity: One query for the results (IDs only when batched), plus one per batch read
    ///   and one per prefetched relationship.
    /// - Throws: ``ObjectGraphError/unknownEntity``, ``FetchRequestError`` for a predicate or
    ///   sort descriptor that does not fit the entity, ``PersistentStoreError`` if the store fails.
    public func fetch<T>(_ request: FetchRequest<T>) throws -> [T] {
        assertOnQueue()
        var plan = try storeFetch(for: request)
        let pending = request.includesPendingChanges
        switch request.resultType {
        case .countResultType:
            return try cast([NSNumber(value: count(plan, includesPendingChanges: pending))], request)
        case .managedObjectIDResultType:
            plan.identifiersOnly = true
            return try cast(matchingRows(plan, includesPendingChanges: pending).ids, request)
        case .dictionaryResultType:
            // As in Core Data, dictionary results show what is saved.
            if let aggregate = try AggregateFetchPlan(request, entity: plan.entity) {
                return try cast(aggregateDictionaries(aggregate, plan), request)
            }
            let keys = try dictionaryKeys(request, entity: plan.entity)
            // The rows are read for these keys only: no object is made from them.
            plan.slotsToRead = Set(keys.map(\.steps[0].slot))
            return try cast(try dictionaries(matchingRows(plan, includesPendingChanges: false), request, keys: keys), request)
        case .managedObjectResultType:
            plan.identifiersOnly = request.fetchBatchSize > 0
            let result = try matchingRows(plan, includesPendingChanges: pending)
            registry.reserveCapacity(max(result.rows.count, result.ids.count))
            guard request.fetchBatchSize > 0 else {
                let objects = result.rows.map { object(for: $0, asFault: request.returnsObjectsAsFaults) }
                if request.shouldRefreshRefetchedObjects { try refreshRefetched(objects) }
                try prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
                return try cast(objects, request)
            }
            // Batches prefetch their relationships as they load.
            let loader = BatchFaultLoader(ids: result.ids, batchSize: request.fetchBatchSize,
                                          prefetchKeyPaths: request.relationshipKeyPathsForPrefetching)
            let objects = batchedObjects(result, loader: loader)
            if request.shouldRefreshRefetchedObjects { try refreshRefetched(objects) }
            return try cast(objects, request)
        }
    }

    /// Runs a fetch request and returns its results as a collection that creates each object only
    /// when it is read, loading values a batch at a time (``FetchRequest/fetchBatchSize``, 20 if
    /// unset). It holds only the results' IDs, so it suits large results.
    ///
    /// ```swift
    /// let teams = try context.fetchLazily(Team.fetchRequest())
    /// print(teams.count)          // no objects created, no values read
    /// print(teams[40].teamName)   // reads objects 40 to 59 in one query
    /// ```
    ///
    /// - Throws: As ``fetch(_:)``.
    public func fetchLazily<T: ManagedObject>(_ request: FetchRequest<T>) throws -> LazyFetchResults<T> {
        assertOnQueue()
        var plan = try storeFetch(for: request)
        guard request.resultType == .managedObjectResultType else {
            throw ObjectGraphError(ObjectGraphError.resultTypeMismatch, "fetchLazily(_:) returns objects; the request's resultType is \(request.resultType)")
        }
        plan.identifiersOnly = true
        let result = try matchingRows(plan, includesPendingChanges: request.includesPendingChanges)
        let loader = BatchFaultLoader(ids: result.ids, batchSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : 20,
                                      prefetchKeyPaths: request.relationshipKeyPathsForPrefetching)
        for row in result.rows where registeredObjectIfAlive(for: row.objectID)?.state.isFault ?? true {
            _ = object(for: row, asFault: true)
        }
        return LazyFetchResults(loader: loader, context: self)
    }

    /// The number of objects a fetch request would return.
    ///
    /// - Throws: As ``fetch(_:)``.
    public func count<T>(for request: FetchRequest<T>) throws -> Int {
        assertOnQueue()
        return try count(try storeFetch(for: request), includesPendingChanges: request.includesPendingChanges)
    }

    // MARK: Requests

    /// The request checked against the model: entity, predicate and sort keys resolved.
    func storeFetch<T>(for request: FetchRequest<T>) throws -> StoreFetch {
        let entity = try request.resolveEntity(in: managedObjectModel)
        try checkResultType(of: request, entity: entity)
        // A grouped fetch sorts its dictionaries by their keys (AggregateFetchPlan), not its rows.
        let sortsRows = request.resultType != .dictionaryResultType || !request.isGrouped
        let sortKeys = try (sortsRows ? request.sortDescriptors ?? [] : []).map { descriptor -> ResolvedSortKey in
            let key = try descriptor.resolved(for: entity)
            guard key.attribute.isPersistent else {
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "cannot sort \(entity.entityName) by '\(descriptor.key)': it is transient and not stored",
                                        entityName: entity.entityName, keyPath: descriptor.key)
            }
            return key
        }
        return StoreFetch(entity: entity, includesSubentities: request.includesSubentities,
                          predicate: try request.predicate?.resolved(for: entity), sortKeys: sortKeys,
                          limit: max(0, request.fetchLimit), offset: max(0, request.fetchOffset))
    }

    /// Refuses a request whose type cannot hold what its result type returns, whether or not
    /// anything matches, so that the mistake shows with an empty store too.
    private func checkResultType<T>(of request: FetchRequest<T>, entity: EntityDescription) throws {
        let fits = switch request.resultType {
        case .managedObjectResultType:
            (request.includesSubentities ? entity.selfAndDescendants : [entity]).allSatisfy { $0.managedObjectClass is T.Type }
        case .managedObjectIDResultType: T.self == ManagedObjectID.self
        case .dictionaryResultType: T.self == NSDictionary.self
        case .countResultType: T.self == NSNumber.self
        }
        guard fits else {
            throw ObjectGraphError(ObjectGraphError.resultTypeMismatch, "a FetchRequest<\(T.self)> cannot return the results of resultType \(request.resultType) for \(entity.entityName); use the type that matches its resultType")
        }
    }

    private func cast<Element, T>(_ results: [Element], _ request: FetchRequest<T>) throws -> [T] {
        // Objects of a request for a ManagedObject subclass: `checkResultType` found every
        // fetched entity's class to be a `T`, so the array is one already, without a dynamic
        // cast per element.
        if Element.self == ManagedObject.self, T.self is ManagedObject.Type {
            return unsafeBitCast(results, to: [T].self)
        }
        guard let typed = results as? [T] else {
            throw ObjectGraphError(ObjectGraphError.resultTypeMismatch, "a FetchRequest<\(T.self)> cannot return \(Element.self) results; use the type that matches its resultType")
        }
        return typed
    }

    // MARK: Results

    /// The object for a fetched row: the registered one, or a fault that fills from the row.
    func object(for snapshot: RowSnapshot, asFault: Bool) -> ManagedObject {
        let object = objectOnQueue(with: snapshot.objectID)
        if object.state.isFault {
            object.faultSource = .snapshot(snapshot)
            if !asFault { object.materialize() }
        }
        return object
    }

    /// Objects a fetch read again that hold values take the parent store's, under their unsaved
    /// changes, when those are newer. Read apart from the fetch, whose rows for changed objects
    /// are the context's own.
    private func refreshRefetched(_ objects: [ManagedObject]) throws {
        let held = objects.filter { !$0.state.isFault && !$0.state.isInserted }
        guard !held.isEmpty else { return }
        let rows = Dictionary(try parentSnapshots(for: held.map(\.objectID)).map { ($0.objectID, $0) },
                              uniquingKeysWith: { first, _ in first })
        for object in held {
            guard let row = rows[object.objectID], row.version > object.version else { continue }
            object.mergeCommitted(row, in: self)
            pending.refreshed.insert(object)
        }
        scheduleProcessingPendingChanges()
    }

    /// Faults for a batched fetch: rows the fetch had to read fill their faults; the rest load a
    /// batch at a time.
    private func batchedObjects(_ result: StoreFetchResult, loader: BatchFaultLoader) -> [ManagedObject] {
        let rows = Dictionary(result.rows.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        return result.ids.indices.map { index in
            if let row = rows[result.ids[index]] { return object(for: row, asFault: true) }
            return loader.object(at: index, in: self)
        }
    }

    /// The keys of a request's dictionaries: its properties to fetch, or every stored attribute.
    private func dictionaryKeys<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws -> [DictionaryKey] {
        try (request.propertiesToFetch ?? entity.slots.compactMap { property in
            (property as? AttributeDescription).flatMap { $0.isPersistent ? $0.name : nil }
        }).map { element in try DictionaryKey(element: element, entity: entity) }
    }

    private func dictionaries<T>(_ result: StoreFetchResult, _ request: FetchRequest<T>, keys: [DictionaryKey]) throws -> [NSDictionary] {
        let names = KnownKeysDictionary.Keys(keys.map(\.name))
        // Distinct results are told apart by their stored values, hashed, not by comparing
        // each dictionary with every one kept so far.
        var seen: Set<[PropertyValue]> = []
        var dictionaries: [NSDictionary] = []
        dictionaries.reserveCapacity(result.rows.count)
        for row in result.rows {
            let stored = keys.map { $0.storedValue(in: row, context: self) }
            if request.returnsDistinctResults, !seen.insert(stored).inserted { continue }
            dictionaries.append(KnownKeysDictionary(keys: names, values: zip(keys, stored).map { key, value in key.boxed(value) }))
        }
        return dictionaries
    }
}
