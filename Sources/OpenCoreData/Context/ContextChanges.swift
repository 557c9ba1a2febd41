/// What changed in a context, by object ID: the typed, `Sendable` form of Core Data's context
/// notifications, delivered by ``ManagedObjectContext/changes(of:)``.
///
/// ```swift
/// for await change in container.viewContext.changes(of: [.didSave, .didMerge]) {
///     print(change.kind, change.inserted.count, change.updated.count, change.deleted.count)
/// }
/// ```
public struct ContextChanges: Sendable {
    /// Which notification a change set corresponds to.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// Pending changes were processed (``ManagedObjectContext/didChangeObjectsNotification``).
        case objectsDidChange
        /// A save is about to write (``ManagedObjectContext/willSaveObjectsNotification``).
        case willSave
        /// A save finished (``ManagedObjectContext/didSaveObjectsNotification``).
        case didSave
        /// Changes saved elsewhere were merged
        /// (``ManagedObjectContext/didMergeChangesObjectIDsNotification``).
        case didMerge
    }

    /// The notification this change set corresponds to.
    public let kind: Kind
    /// Objects inserted (for `objectsDidChange`, temporary IDs of new objects).
    public let inserted: Set<ManagedObjectID>
    /// Objects whose values changed.
    public let updated: Set<ManagedObjectID>
    /// Objects deleted.
    public let deleted: Set<ManagedObjectID>
    /// Objects whose values were reloaded from the parent store (refreshes and merges).
    public let refreshed: Set<ManagedObjectID>
    /// Objects that became unusable.
    public let invalidated: Set<ManagedObjectID>
    /// Whether every object became unusable (``ManagedObjectContext/reset()``).
    public let invalidatedAll: Bool
    /// For updated and refreshed objects, the keys that changed, where known.
    public let changedKeys: [ManagedObjectID: Set<String>]
}

/// One change event, as observers inside the library see it: objects as well as IDs, the slots
/// that changed and their old values.
struct ContextEvent {
    var kind: ContextChanges.Kind
    var inserted: Set<ManagedObject> = []
    var updated: Set<ManagedObject> = []
    var deleted: Set<ManagedObject> = []
    var refreshed: Set<ManagedObject> = []
    var invalidated: Set<ManagedObject> = []
    var invalidatedAll = false
    /// Slots changed in this event, per updated object.
    var changedSlots: [ObjectIdentifier: Set<Int>] = [:]
    /// Values before this event, per updated object.
    var oldValues: [ObjectIdentifier: [Int: Slot]] = [:]
    /// Merges and saves also name objects by ID, including objects not registered here.
    var insertedIDs: Set<ManagedObjectID> = []
    var updatedIDs: Set<ManagedObjectID> = []
    var deletedIDs: Set<ManagedObjectID> = []
    var changedKeysByID: [ManagedObjectID: Set<String>] = [:]
    /// For objects-did-change: the changes were made by merging another context's save, which
    /// observers hear about again, by ID, in the did-merge event that follows.
    var causedByMerge = false
    /// For did-merge and did-save: the save, with snapshots of new values and pre-images.
    var savedChanges: SavedChanges?
    /// Temporary IDs that became permanent (a save, or obtainPermanentIDs). Observers only: no
    /// notification is posted for this.
    var permanentIDs: [ManagedObjectID: ManagedObjectID] = [:]

    init(kind: ContextChanges.Kind) {
        self.kind = kind
    }

    /// The keys changed for `object` in this event.
    func changedKeys(of object: ManagedObject) -> Set<String> {
        if let slots = changedSlots[ObjectIdentifier(object)] {
            return Set(slots.map { object.entity.slots[$0].name })
        }
        return changedKeysByID[object.objectID] ?? []
    }

    var changes: ContextChanges {
        var keys = changedKeysByID
        for object in updated.union(refreshed) {
            let objectKeys = changedKeys(of: object)
            if !objectKeys.isEmpty { keys[object.objectID, default: []].formUnion(objectKeys) }
        }
        return ContextChanges(
            kind: kind,
            inserted: Self.ids(of: inserted, adding: insertedIDs),
            updated: Self.ids(of: updated, adding: updatedIDs),
            deleted: Self.ids(of: deleted, adding: deletedIDs),
            refreshed: Self.ids(of: refreshed, adding: []),
            invalidated: Self.ids(of: invalidated, adding: []),
            invalidatedAll: invalidatedAll,
            changedKeys: keys)
    }

    /// The objects' IDs and `ids`, in a set sized once for all of them.
    private static func ids(of objects: Set<ManagedObject>, adding ids: Set<ManagedObjectID>) -> Set<ManagedObjectID> {
        var result = ids
        result.reserveCapacity(ids.count + objects.count)
        for object in objects { result.insert(object.objectID) }
        return result
    }
}

/// The changes of the current event, not yet reported.
struct PendingEvent {
    var inserted: Set<ManagedObject> = []
    var updated: Set<ManagedObject> = []
    var deleted: Set<ManagedObject> = []
    var refreshed: Set<ManagedObject> = []
    var invalidated: Set<ManagedObject> = []
    /// Deleted objects whose delete rules have not run yet.
    var deletionsToPropagate: [ManagedObject] = []

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty
            && invalidated.isEmpty && deletionsToPropagate.isEmpty
    }
}
