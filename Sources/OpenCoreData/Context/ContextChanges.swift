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

    /// A change set of IDs listed in this order: inserted, updated, deleted, refreshed,
    /// invalidated.
    init(kind: Kind, invalidatedAll: Bool, changedKeys: [ManagedObjectID: Set<String>], ids: [[ManagedObjectID]]) {
        self.kind = kind
        self.invalidatedAll = invalidatedAll
        self.changedKeys = changedKeys
        self.ids = ChangedIDs(ids)
    }

    /// The objects' IDs, in a list sized once.
    static func ids(of objects: Set<ManagedObject>) -> [ManagedObjectID] {
        var result: [ManagedObjectID] = []
        result.reserveCapacity(objects.count)
        for object in objects { result.append(object.objectID) }
        return result
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
