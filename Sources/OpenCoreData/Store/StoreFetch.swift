/// A fetch as a store executes it: which entity's rows, which of them, in which order, which
/// window, and whether to read whole rows or only their IDs.
package struct StoreFetch: Sendable {
    package var entity: EntityDescription
    package var includesSubentities: Bool
    /// The condition rows must meet; nil for all rows.
    package var predicate: ResolvedPredicate?
    /// Sort keys; ties are broken by primary key ascending.
    package var sortKeys: [ResolvedSortKey]
    package var limit: Int
    package var offset: Int
    /// Read only object IDs (for batched fetches), not values.
    package var identifiersOnly: Bool
    /// The slots whose values the caller reads, when not all (dictionary results): a store may
    /// leave the others `.null`. Rows read so are never an object's values. Nil: every slot.
    package var slotsToRead: Set<Int>?

    package init(entity: EntityDescription, includesSubentities: Bool = true, predicate: ResolvedPredicate? = nil,
                 sortKeys: [ResolvedSortKey] = [], limit: Int = 0, offset: Int = 0, identifiersOnly: Bool = false) {
        self.entity = entity
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = offset
        self.identifiersOnly = identifiersOnly
    }

    /// The same fetch reading every slot.
    package var readingEverySlot: StoreFetch {
        var whole = self
        whole.slotsToRead = nil
        return whole
    }

    /// The entities whose rows qualify.
    package var entities: [EntityDescription] {
        includesSubentities ? entity.selfAndDescendants : [entity]
    }

    /// The top-level conditions of the predicate, which can be applied separately.
    package var conjuncts: [ResolvedPredicate] {
        guard let predicate else { return [] }
        if case .and(let parts) = predicate { return parts }
        return [predicate]
    }
}

/// What a store returns for a fetch.
package struct StoreFetchResult: Sendable {
    /// The matching objects, in order.
    package var ids: [ManagedObjectID]
    /// Their values, unless the fetch asked for identifiers only (or a residual forced values).
    package var rows: [RowSnapshot]
    /// Conditions the store could not express: the rows are not filtered by them, and the
    /// window (limit and offset) was not applied. The caller evaluates them in memory.
    package var residual: ResolvedPredicate?

    package init(ids: [ManagedObjectID], rows: [RowSnapshot], residual: ResolvedPredicate? = nil) {
        self.ids = ids
        self.rows = rows
        self.residual = residual
    }

    package init(rows: [RowSnapshot], residual: ResolvedPredicate? = nil) {
        self.init(ids: rows.map(\.objectID), rows: rows, residual: residual)
    }
}
