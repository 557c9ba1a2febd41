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
    public var inserted: Set<ManagedObjectID> { ids.set(.inserted) }
    /// Objects whose values changed.
    public var updated: Set<ManagedObjectID> { ids.set(.updated) }
    /// Objects deleted.
    public var deleted: Set<ManagedObjectID> { ids.set(.deleted) }
    /// Objects whose values were reloaded from the parent store (refreshes and merges).
    public var refreshed: Set<ManagedObjectID> { ids.set(.refreshed) }
    /// Objects that became unusable.
    public var invalidated: Set<ManagedObjectID> { ids.set(.invalidated) }
    /// Whether every object became unusable (``ManagedObjectContext/reset()``).
    public let invalidatedAll: Bool
    /// For updated and refreshed objects, the keys that changed, where known.
    public let changedKeys: [ManagedObjectID: Set<String>]

    private let ids: ChangedIDs

    fileprivate init(kind: Kind, invalidatedAll: Bool, changedKeys: [ManagedObjectID: Set<String>], ids: ChangedIDs) {
        self.kind = kind
        self.invalidatedAll = invalidatedAll
        self.changedKeys = changedKeys
        self.ids = ids
    }
}

/// The IDs of a change set: taken as lists when the event happens, and made into sets when first
/// read. A save of 100,000 new objects is announced several times (objects did change, did
/// save), and hashing every ID into a set each time cost as much as writing the rows, for sets
/// nobody may read.
fileprivate final class ChangedIDs: Sendable {
    enum Kind: Int, CaseIterable {
        case inserted, updated, deleted, refreshed, invalidated
    }

    private let lists: [[ManagedObjectID]]
    private let sets: Locked<[Set<ManagedObjectID>?]>

    init(_ lists: [[ManagedObjectID]]) {
        self.lists = lists
        sets = Locked(Array(repeating: nil, count: Kind.allCases.count))
    }

    func set(_ kind: Kind) -> Set<ManagedObjectID> {
        sets.withLock { sets in
            if let set = sets[kind.rawValue] { return set }
            let set = Set(lists[kind.rawValue])
            sets[kind.rawValue] = set
            return set
        }
    }
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
    var permanentIDs = IDMapping()

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
        return ContextChanges(kind: kind, invalidatedAll: invalidatedAll, changedKeys: keys, ids: ChangedIDs([
            Self.ids(of: inserted, adding: insertedIDs), Self.ids(of: updated, adding: updatedIDs),
            Self.ids(of: deleted, adding: deletedIDs), Self.ids(of: refreshed, adding: []), Self.ids(of: invalidated, adding: []),
        ]))
    }

    /// The objects' IDs and `ids`, in a list sized once for all of them.
    private static func ids(of objects: Set<ManagedObject>, adding ids: Set<ManagedObjectID>) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        result.reserveCapacity(ids.count + objects.count)
        result.append(contentsOf: ids)
        for object in objects { result.append(object.objectID) }
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
