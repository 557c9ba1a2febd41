/// How a fetch's rows are found: the parent's rows (the store's for a root context, the parent
/// context's view for a child), filtered by whatever of the predicate the store could not apply,
/// then corrected for this context's unsaved changes.
extension ManagedObjectContext {
    /// The rows a fetch selects as this context sees them, in order, with the window applied.
    ///
    /// - Complexity: One parent read, plus O(k log n) in-memory comparisons for k changed objects.
    func matchingRows(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> StoreFetchResult {
        let changes = includesPendingChanges ? pendingChanges(affecting: plan) : nil
        var request = plan
        if changes != nil {
            // Changed objects must be placed among the rows by value: read values, no window.
            request.limit = 0
            request.offset = 0
            request.identifiersOnly = false
        }
        var result = try parentFetch(request, includesPendingChanges: includesPendingChanges)
        var needsWindow = changes != nil
        if let residual = result.residual {
            let evaluator = PredicateEvaluator()
            let objects = result.rows.map { object(for: $0, asFault: true) }
            // One read per relationship the conditions walk, not one per row and relationship.
            try prefetch(residual.relationshipKeyPaths, for: objects)
            var matching: [RowSnapshot] = []
            for (row, object) in zip(result.rows, objects) where try evaluator.evaluate(residual, on: object) {
                matching.append(row)
            }
            result.rows = matching
            result.ids = result.rows.map(\.objectID)
            result.residual = nil
            needsWindow = true
        }
        if let changes {
            result = try merge(changes, into: result, plan: plan)
        }
        if needsWindow, plan.limit > 0 || plan.offset > 0 {
            let window = result.ids.indices.dropFirst(plan.offset)
            let kept = plan.limit > 0 ? window.prefix(plan.limit) : window
            let ids = kept.map { result.ids[$0] }
            let keptSet = Set(ids)
            result = StoreFetchResult(ids: ids, rows: result.rows.filter { keptSet.contains($0.objectID) })
        }
        return result
    }

    func count(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> Int {
        if includesPendingChanges, pendingChanges(affecting: plan) != nil {
            var idsOnly = plan
            idsOnly.identifiersOnly = true
            return try matchingRows(idsOnly, includesPendingChanges: true).ids.count
        }
        switch parentStore {
        case .coordinator(let coordinator):
            if let count = try readingStore({ try coordinator.count(plan) }) { return count }
            var idsOnly = plan
            idsOnly.identifiersOnly = true
            return try matchingRows(idsOnly, includesPendingChanges: includesPendingChanges).ids.count
        case .context(let parent):
            if !includesPendingChanges, let coordinator = persistentStoreCoordinator, let count = try coordinator.count(plan) {
                return count
            }
            return try parent.performAndWait { try parent.count(plan, includesPendingChanges: includesPendingChanges) }
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    /// The parent's rows; without pending changes, straight from the store at any depth.
    private func parentFetch(_ plan: StoreFetch, includesPendingChanges: Bool) throws -> StoreFetchResult {
        switch parentStore {
        case .coordinator(let coordinator):
            return try readingStore { try coordinator.fetch(plan) }
        case .context(let parent):
            guard includesPendingChanges else {
                guard let coordinator = persistentStoreCoordinator else { break }
                return try coordinator.fetch(plan)
            }
            return try parent.performAndWait { try parent.matchingRows(plan, includesPendingChanges: true) }
        case nil:
            break
        }
        throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
    }

    // MARK: This context's changes

    private struct FetchChanges {
        /// Inserted and changed objects of the fetched entities, not deleted.
        var candidates: [ManagedObject]
        /// Rows to take out of the parent's result: deleted and changed objects.
        var replaced: Set<ManagedObjectID>
    }

    /// This context's unsaved changes to objects of the fetched entities, or nil if there are none.
    private func pendingChanges(affecting plan: StoreFetch) -> FetchChanges? {
        let entities = Set(plan.entities.map(ObjectIdentifier.init))
        func matches(_ object: ManagedObject) -> Bool { entities.contains(ObjectIdentifier(object.entity)) }
        let inserted = insertedSet.filter(matches)
        let changed = changedSet.filter { matches($0) && !$0.isDeleted }
        let deleted = deletedSet.filter(matches)
        guard !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty else { return nil }
        let candidates = (Array(inserted) + Array(changed)).sorted { Self.idPrecedes($0.objectID, $1.objectID) }
        return FetchChanges(candidates: candidates, replaced: Set((changed.map(\.objectID)) + deleted.map(\.objectID)))
    }

    /// Takes changed and deleted objects out of the parent's rows, and puts back the changed and
    /// inserted ones that match, each at its place in the sort order. Rows stay rows: only those
    /// a binary search compares through a relationship become objects.
    private func merge(_ changes: FetchChanges, into result: StoreFetchResult, plan: StoreFetch) throws -> StoreFetchResult {
        var rows = result.rows.filter { !changes.replaced.contains($0.objectID) }
        let evaluator = PredicateEvaluator()
        for candidate in changes.candidates where try plan.predicate.map({ try evaluator.evaluate($0, on: candidate) }) ?? true {
            let snapshot = candidate.currentSnapshot()
            let index = rows.partitioningIndex { !precedes($0, snapshot, candidate: candidate, by: plan.sortKeys) }
            rows.insert(snapshot, at: index)
        }
        return StoreFetchResult(rows: rows)
    }

    /// Whether a row comes before a changed object in the fetch's order.
    private func precedes(_ row: RowSnapshot, _ snapshot: RowSnapshot, candidate: ManagedObject, by keys: [ResolvedSortKey]) -> Bool {
        for key in keys {
            let order = key.compare(sortValue(key, of: row), Self.sortValue(key, of: candidate))
            if order != 0 { return order < 0 }
        }
        return Self.idPrecedes(row.objectID, snapshot.objectID)
    }

    /// A sort key's value for a row: read from the row for an attribute of its own, from the
    /// related object otherwise.
    private func sortValue(_ key: ResolvedSortKey, of row: RowSnapshot) -> PropertyValue {
        if key.path.steps.count == 1, case .attribute(let attribute) = key.path.steps[0] {
            return row.value(at: attribute.slot)
        }
        return Self.sortValue(key, of: object(for: row, asFault: true))
    }

    // MARK: Order

    /// The stores' tie-break: saved objects by primary key, then new objects in creation order.
    static func idPrecedes(_ lhs: ManagedObjectID, _ rhs: ManagedObjectID) -> Bool {
        if lhs.isTemporaryID != rhs.isTemporaryID { return !lhs.isTemporaryID }
        return lhs.key < rhs.key
    }

    /// A sort key's value for an object, following to-one relationships.
    static func sortValue(_ key: ResolvedSortKey, of object: ManagedObject) -> PropertyValue {
        var current: ManagedObject? = object
        for step in key.path.steps {
            switch step {
            case .toOne(let relationship): current = current?.toOneValue(at: relationship.slot)
            case .attribute(let attribute): return current?.attributeValue(at: attribute.slot) ?? .null
            case .toMany(let relationship): return current.map { .integer(Int64($0.toManyValue(at: relationship.slot).count)) } ?? .null
            default: return .null
            }
        }
        return .null
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `belongs`, for a collection partitioned by it
    /// (binary search).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
