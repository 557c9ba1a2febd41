/// An object's stored values at one version: what a store returns for a row, what a parent
/// context hands its children, and what merges carry between contexts.
package struct RowSnapshot: Sendable {
    package var objectID: ManagedObjectID
    /// One value per slot of the object's entity; to-many and transient slots hold `.null`, a
    /// to-one holds `.object(destinationID)`.
    package var values: [PropertyValue]
    /// The row version, incremented by each save (optimistic locking).
    package var version: Int64

    package init(objectID: ManagedObjectID, values: [PropertyValue], version: Int64) {
        self.objectID = objectID
        self.values = values
        self.version = version
    }

    package func value(at slot: Int) -> PropertyValue {
        slot < values.count ? values[slot] : .null
    }
}

/// The changes a root context saves, in one transaction.
package struct SaveRequest: Sendable {
    /// New rows. Objects with temporary IDs get permanent ones from the store.
    package var inserted: [RowSnapshot] = []
    /// Changed rows: the full new values, which slots changed, and the version they were read at.
    package var updated: [RowUpdate] = []
    /// Removed rows and the version they were read at.
    package var deleted: [RowDeletion] = []
    /// Links added to or removed from join tables.
    package var joinChanges: [JoinChange] = []
    /// The new order of ordered to-many relationships that changed.
    package var orderChanges: [RelationshipOrderChange] = []
    /// Who saves, for the store's persistent history.
    package var transactionInfo = HistoryTransactionInfo()

    package init() {}

    package var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && joinChanges.isEmpty && orderChanges.isEmpty
    }
}

package struct RowUpdate: Sendable {
    package var snapshot: RowSnapshot
    package var changedSlots: [Int]
    /// The version the change is based on; the row must still have it, unless a merge policy
    /// decided to overwrite.
    package var expectedVersion: Int64

    package init(snapshot: RowSnapshot, changedSlots: [Int], expectedVersion: Int64) {
        self.snapshot = snapshot
        self.changedSlots = changedSlots
        self.expectedVersion = expectedVersion
    }
}

package struct RowDeletion: Sendable {
    package var objectID: ManagedObjectID
    package var expectedVersion: Int64
}

/// One link of a join-table relationship, seen from the relationship that owns the table.
package struct JoinChange: Sendable {
    package var relationship: RelationshipDescription
    package var source: ManagedObjectID
    package var destination: ManagedObjectID
    package var isInsertion: Bool
}

/// The whole order of an ordered to-many relationship of one object after a save. Stores keep
/// it beside the links (which say what the relationship holds); reading puts the destinations in
/// this order, and any the order does not list after them.
package struct RelationshipOrderChange: Sendable {
    package var relationship: RelationshipDescription
    package var owner: ManagedObjectID
    package var destinations: [ManagedObjectID]
}

/// A row that changed in the store since the saving context read it.
package struct StoreConflict: Sendable {
    package var objectID: ManagedObjectID
    /// The row as the store has it now, or nil if it was deleted.
    package var current: RowSnapshot?

    package init(objectID: ManagedObjectID, current: RowSnapshot?) {
        self.objectID = objectID
        self.current = current
    }
}

/// What a store reports after a save.
package enum SaveOutcome: Sendable {
    /// Everything was written. Temporary IDs of inserted rows map to these permanent ones.
    ///
    /// `preImages` holds, for every updated and deleted row, the row as the store had it just
    /// before this save overwrote it (read in the same transaction), so that contexts merging the
    /// save can find where a row was in an ordered result from its old sort values. Inserted rows,
    /// and rows that did not exist, have none. `generations` are the store's around the commit.
    ///
    /// `historyToken` follows the transaction the store recorded in its persistent history, or is
    /// nil when the store records none.
    case committed(permanentIDs: IDMapping, preImages: [ManagedObjectID: RowSnapshot], generations: CommitGenerations,
                   historyToken: PersistentHistoryToken?)
    /// Nothing was written: these rows changed since they were read.
    case conflicts([StoreConflict])
    /// Nothing was written: rows of the save claim constrained values that other stored rows
    /// hold. Reported only when no row changed since it was read (those conflicts come first,
    /// as in Core Data).
    case constraintConflicts([StoreConstraintConflict])
}

extension RowSnapshot {
    /// The row with temporary IDs replaced by permanent ones, in its own ID and its to-one values.
    func replacingIDs(_ mapping: [ManagedObjectID: ManagedObjectID]) -> RowSnapshot {
        var copy = self
        copy.objectID = mapping[objectID] ?? objectID
        // Most rows point to no new object: they keep their values array instead of copying it.
        for (index, value) in values.enumerated() {
            if case .object(let id) = value, let permanent = mapping[id] { copy.values[index] = .object(permanent) }
        }
        return copy
    }
}

extension RowSnapshot {
    /// Whether the row points to an object not saved yet.
    var referencesTemporaryIDs: Bool {
        values.contains { value in value.objectID?.isTemporaryID ?? false }
    }
}

extension SaveRequest {
    /// Whether rows or links point to objects not saved yet (beyond new rows' own IDs), so that
    /// writing them needs a lookup by temporary ID.
    package var referencesTemporaryIDs: Bool {
        inserted.contains(where: \.referencesTemporaryIDs) || updated.contains { $0.snapshot.referencesTemporaryIDs }
            || joinChanges.contains { $0.source.isTemporaryID || $0.destination.isTemporaryID }
            || orderChanges.contains { $0.owner.isTemporaryID || $0.destinations.contains(where: \.isTemporaryID) }
    }

    /// Replaces temporary IDs (in row IDs, to-one values, join links and orders) by permanent ones.
    package func replacingIDs(_ mapping: [ManagedObjectID: ManagedObjectID]) -> SaveRequest {
        guard !mapping.isEmpty else { return self }
        func map(_ id: ManagedObjectID) -> ManagedObjectID { mapping[id] ?? id }
        func map(_ snapshot: RowSnapshot) -> RowSnapshot { snapshot.replacingIDs(mapping) }
        var copy = self
        copy.inserted = inserted.map(map)
        copy.updated = updated.map { update in
            var changed = update
            changed.snapshot = map(update.snapshot)
            return changed
        }
        copy.joinChanges = joinChanges.map { change in
            var changed = change
            changed.source = map(change.source)
            changed.destination = map(change.destination)
            return changed
        }
        copy.orderChanges = orderChanges.map { change in
            var changed = change
            changed.owner = map(change.owner)
            changed.destinations = change.destinations.map(map)
            return changed
        }
        return copy
    }
}
