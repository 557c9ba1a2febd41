import Foundation

extension ManagedObjectContext {
    /// Runs a fetch request: the objects (or IDs, dictionaries, count) that the request selects,
    /// in its order, reflecting this context's unsaved changes unless
    /// ``FetchRequest/includesPendingChanges`` is false.
    ///
    /// ```swift
    /// let request = Team.fetchRequest()
    /// request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
    /// let teams = try context.fetch(request)
    /// ```
    ///
    /// - Throws: ``ObjectGraphError/unknownEntity`` or ``ObjectGraphError/unknownKey`` for a request
    ///   naming something the model does not have, ``PersistentStoreError`` if the store fails.
    public func fetch<T>(_ request: FetchRequest<T>) throws -> [T] {
        assertOnQueue()
        let plan = try storeFetch(for: request)
        if request.resultType == .countResultType {
            return try cast([NSNumber(value: count(plan, includesPendingChanges: request.includesPendingChanges))], request)
        }
        let rows = try matchingSnapshots(plan, includesPendingChanges: request.includesPendingChanges)
        switch request.resultType {
        case .managedObjectIDResultType:
            return try cast(rows.map(\.objectID), request)
        case .dictionaryResultType:
            return try cast(rows.map { dictionary(from: $0) }, request)
        default:
            return try cast(rows.map { object(for: $0, asFault: request.returnsObjectsAsFaults) }, request)
        }
    }

    /// The number of objects a fetch request would return.
    ///
    /// - Throws: As ``fetch(_:)``.
    public func count<T>(for request: FetchRequest<T>) throws -> Int {
        assertOnQueue()
        return try count(try storeFetch(for: request), includesPendingChanges: request.includesPendingChanges)
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
        guard let typed = results as? [T] else {
            throw ObjectGraphError(ObjectGraphError.resultTypeMismatch, "a FetchRequest<\(T.self)> cannot return \(Element.self) results; use the type that matches its resultType")
        }
        return typed
    }

    private func storeFetch<T>(for request: FetchRequest<T>) throws -> StoreFetch {
        let entity = try request.resolveEntity(in: managedObjectModel)
        try checkResultType(of: request, entity: entity)
        let sortKeys = try (request.sortDescriptors ?? []).map { descriptor -> StoreSortKey in
            guard let attribute = entity.property(named: descriptor.key) as? AttributeDescription, attribute.isPersistent else {
                throw ObjectGraphError(ObjectGraphError.unknownKey, "\(entity.entityName) has no stored attribute '\(descriptor.key)' to sort by")
            }
            return StoreSortKey(attribute: attribute, ascending: descriptor.ascending)
        }
        return StoreFetch(entity: entity, includesSubentities: request.includesSubentities, sortKeys: sortKeys,
                          limit: max(0, request.fetchLimit), offset: max(0, request.fetchOffset))
    }

    // MARK: Rows, with this context's changes applied

    /// The rows a fetch selects as this context sees them: the parent's rows, with this
    /// context's deletions removed, its changed objects' current values, and its inserted objects.
    func matchingSnapshots(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> [RowSnapshot] {
        guard includesPendingChanges, let changes = pendingChanges(affecting: plan) else {
            return try parentFetch(plan)
        }
        var unlimited = plan
        unlimited.limit = 0
        unlimited.offset = 0
        var rows = try parentFetch(unlimited).compactMap { row -> RowSnapshot? in
            if changes.deleted.contains(row.objectID) { return nil }
            return changes.changed[row.objectID]?.currentSnapshot() ?? row
        }
        rows += changes.inserted.map { $0.currentSnapshot() }
        rows.sort { Self.precedes($0, $1, by: plan.sortKeys) }
        let window = rows.dropFirst(plan.offset)
        return Array(plan.limit > 0 ? window.prefix(plan.limit) : window)
    }

    private func count(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> Int {
        if includesPendingChanges, pendingChanges(affecting: plan) != nil {
            return try matchingSnapshots(plan, includesPendingChanges: true).count
        }
        switch parentStore {
        case .coordinator(let coordinator):
            return try coordinator.count(plan)
        case .context(let parent):
            return try parent.performAndWait { try parent.count(plan, includesPendingChanges: true) }
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    private func parentFetch(_ plan: StoreFetch) throws -> [RowSnapshot] {
        switch parentStore {
        case .coordinator(let coordinator):
            return try coordinator.fetch(plan)
        case .context(let parent):
            return try parent.performAndWait { try parent.matchingSnapshots(plan, includesPendingChanges: true) }
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    private struct FetchChanges {
        var inserted: [ManagedObject]
        var changed: [ManagedObjectID: ManagedObject]
        var deleted: Set<ManagedObjectID>
    }

    /// This context's unsaved changes to objects of the fetched entities, or nil if there are none.
    private func pendingChanges(affecting plan: StoreFetch) -> FetchChanges? {
        let entities = Set(plan.entities.map(ObjectIdentifier.init))
        func matches(_ object: ManagedObject) -> Bool { entities.contains(ObjectIdentifier(object.entity)) }
        let inserted = insertedSet.filter(matches).sorted { $0.objectID.key < $1.objectID.key }
        let changed = changedSet.filter { matches($0) && !$0.isDeleted }
        let deleted = deletedSet.filter(matches)
        guard !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty else { return nil }
        return FetchChanges(inserted: inserted,
                            changed: Dictionary(changed.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first }),
                            deleted: Set(deleted.map(\.objectID)))
    }

    /// The stores' order: the sort keys, then saved objects by primary key, then new objects in
    /// creation order.
    static func precedes(_ lhs: RowSnapshot, _ rhs: RowSnapshot, by keys: [StoreSortKey]) -> Bool {
        for key in keys {
            let order = PropertyValue.compare(lhs.value(at: key.attribute.slot), rhs.value(at: key.attribute.slot))
            if order != 0 { return key.ascending ? order < 0 : order > 0 }
        }
        let left = (lhs.objectID.isTemporaryID, lhs.objectID.key)
        let right = (rhs.objectID.isTemporaryID, rhs.objectID.key)
        return left.0 != right.0 ? !left.0 : left.1 < right.1
    }

    // MARK: Results

    /// The object for a fetched row: the registered one, or a fault that fills from the row.
    private func object(for snapshot: RowSnapshot, asFault: Bool) -> ManagedObject {
        let object = self.object(with: snapshot.objectID)
        if object.state.isFault {
            object.cachedSnapshot = snapshot
            if !asFault { object.materialize() }
        }
        return object
    }

    private func dictionary(from snapshot: RowSnapshot) -> NSDictionary {
        let entity = snapshot.objectID.entity
        var result: [String: Any] = [:]
        for case let attribute as AttributeDescription in entity.slots where attribute.isPersistent {
            if let value = snapshot.value(at: attribute.slot).boxedValue(for: attribute.attributeType) {
                result[attribute.name] = value
            }
        }
        return result as NSDictionary
    }
}
