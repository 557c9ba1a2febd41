/// What one save changed, by ID and snapshot: carried by did-save notifications to
/// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` and to auto-merging contexts, and
/// from a child context into its parent.
package struct SavedChanges: Sendable {
    package var inserted: [RowSnapshot] = []
    package var updated: [RowSnapshot] = []
    package var deleted: [ManagedObjectID] = []
    /// The keys that changed, per updated object.
    package var changedKeys: [ManagedObjectID: Set<String>] = [:]
    /// Objects added to and removed from to-many relationships.
    package var toManyChanges: [ToManyChange] = []
    /// The stored rows that updated and deleted objects had before this save, for observers that
    /// need old values of objects they never loaded.
    package var preImages: [ManagedObjectID: RowSnapshot] = [:]
    /// Temporary IDs that became permanent in this save.
    package var permanentIDs = IDMapping()
    /// The context that saved, which does not merge its own save.
    package var source: ObjectIdentifier?
    /// The store generations around the commit that wrote these changes; nil when they were not
    /// committed to a store (a child context's save into its parent).
    package var storeGenerations: CommitGenerations?

    package var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Objects added to and removed from one to-many relationship of one object.
package struct ToManyChange: Sendable {
    package var objectID: ManagedObjectID
    package var slot: Int
    package var added: [ManagedObjectID]
    package var removed: [ManagedObjectID]
    /// An ordered relationship's whole contents in order after the save; nil for an unordered one.
    package var order: [ManagedObjectID]? = nil
}

extension SavedChanges {
    /// The same changes with temporary IDs replaced by permanent ones, wherever they appear.
    func replacingIDs(_ mapping: [ManagedObjectID: ManagedObjectID]) -> SavedChanges {
        guard !mapping.isEmpty else { return self }
        func map(_ id: ManagedObjectID) -> ManagedObjectID { mapping[id] ?? id }
        func map(_ snapshot: RowSnapshot) -> RowSnapshot { snapshot.replacingIDs(mapping) }
        var copy = self
        copy.inserted = inserted.map(map)
        copy.updated = updated.map(map)
        copy.toManyChanges = toManyChanges.map { change in
            ToManyChange(objectID: map(change.objectID), slot: change.slot,
                         added: change.added.map(map), removed: change.removed.map(map),
                         order: change.order?.map(map))
        }
        return copy
    }
}
