/// One property's value inside a managed object.
///
/// Relationships hold objects of the same context (so an object keeps its identity when its ID
/// turns from temporary to permanent); snapshots and change sets turn them into object IDs.
enum Slot {
    case attribute(PropertyValue)
    case toOne(ManagedObject?)
    case toMany(ToManyRelationship)

    /// A copy that later changes to the live slot do not affect.
    var detachedCopy: Slot {
        if case .toMany(let relationship) = self { return .toMany(relationship.copy()) }
        return self
    }
}

/// A to-many relationship's contents, as the set last read from the parent store plus the
/// changes made since.
///
/// The committed set is loaded on first read (Core Data's relationship fault). Changes made
/// before that, such as adding an object through its inverse, are kept as `added` and `removed`
/// and applied on load, so that inserting many children never reads their parents' sets.
final class ToManyRelationship {
    /// The destination objects as of the last load or save; nil while still a fault.
    var committed: Set<ManagedObject>?
    /// Objects added since the last save.
    private(set) var added: Set<ManagedObject> = []
    /// Objects removed since the last save.
    private(set) var removed: Set<ManagedObject> = []

    init(committed: Set<ManagedObject>?) {
        self.committed = committed
    }

    var isFault: Bool { committed == nil }
    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty }

    /// The current contents, or nil while the committed set is not loaded.
    var current: Set<ManagedObject>? {
        guard let committed else { return nil }
        if added.isEmpty && removed.isEmpty { return committed }
        return committed.union(added).subtracting(removed)
    }

    // While the committed set is not loaded, an object added and then removed may have been
    // there all along: the removal is kept, not cancelled against the addition (and the other
    // way round), so that loading cannot bring it back.

    func insert(_ object: ManagedObject) {
        removed.remove(object)
        if committed?.contains(object) != true { added.insert(object) }
    }

    func remove(_ object: ManagedObject) {
        added.remove(object)
        if committed?.contains(object) ?? true { removed.insert(object) }
    }

    /// The changes have reached the parent store: the current contents become the committed ones.
    func commit() {
        committed = current
        added = []
        removed = []
    }

    /// Forgets the committed set (it changed in the parent store) but keeps local changes.
    func refault() {
        committed = nil
    }

    /// Drops local changes.
    func discardChanges() {
        added = []
        removed = []
    }

    func copy() -> ToManyRelationship {
        let copy = ToManyRelationship(committed: committed)
        copy.added = added
        copy.removed = removed
        return copy
    }
}
