/// A to-many relationship's contents, as the set last read from the parent store plus the
/// changes made since.
///
/// The committed set is loaded on first read (Core Data's relationship fault). Changes made
/// before that, such as adding an object through its inverse, are kept as `added` and `removed`
/// and applied on load, so that inserting many children never reads their parents' sets.
///
/// An ordered relationship also keeps its order: `committedOrder` as loaded or last saved, and
/// `changedOrder`, the whole current order once anything changed it. Its changes are made with
/// the contents loaded (``ManagedObject`` loads them first), so `changedOrder` always holds
/// exactly the current contents; a reload (after a merge refaulted the relationship) keeps the
/// changed order of the objects still there and appends the ones the store added.
final class ToManyRelationship {
    /// The destination objects as of the last load or save; nil while still a fault.
    private(set) var committed: Set<ManagedObject>?
    /// Objects added since the last save.
    private(set) var added: Set<ManagedObject> = []
    /// Objects removed since the last save.
    private(set) var removed: Set<ManagedObject> = []
    /// Whether the relationship keeps an order (Core Data's ordered relationship).
    let isOrdered: Bool
    /// An ordered relationship's committed contents in order; nil while a fault.
    private(set) var committedOrder: [ManagedObject]?
    /// An ordered relationship's current contents in order, once changed since the last save.
    private(set) var changedOrder: [ManagedObject]?

    init(committed: Set<ManagedObject>?, isOrdered: Bool = false) {
        self.committed = committed
        self.isOrdered = isOrdered
        if isOrdered, let committed { committedOrder = Array(committed) }
    }

    var isFault: Bool { committed == nil }
    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty || changedOrder != nil }

    /// The current contents, or nil while the committed set is not loaded.
    var current: Set<ManagedObject>? {
        guard let committed else { return nil }
        if added.isEmpty && removed.isEmpty { return committed }
        return committed.union(added).subtracting(removed)
    }

    /// The current contents in order (an unordered relationship's in no particular order), or nil
    /// while the committed set is not loaded.
    var orderedCurrent: [ManagedObject]? {
        guard committed != nil else { return nil }
        if let changedOrder { return changedOrder }
        if let committedOrder, added.isEmpty, removed.isEmpty { return committedOrder }
        return current.map(Array.init)
    }

    /// Sets the committed contents, as read from the parent store (in order, for an ordered one).
    func load(_ objects: [ManagedObject]) {
        committed = Set(objects)
        guard isOrdered else { return }
        committedOrder = objects
        if changedOrder != nil || !added.isEmpty || !removed.isEmpty { changedOrder = reconciledOrder() }
    }

    /// The order to keep after a load: the changed order of the objects still there, then the
    /// committed ones it does not hold, then objects added while the relationship was a fault.
    private func reconciledOrder() -> [ManagedObject] {
        guard let current else { return changedOrder ?? [] }
        var seen: Set<ManagedObject> = []
        var order: [ManagedObject] = []
        order.reserveCapacity(current.count)
        for object in (changedOrder ?? []) + (committedOrder ?? []) where current.contains(object) && seen.insert(object).inserted {
            order.append(object)
        }
        for object in current.sorted(by: { $0.objectID.key < $1.objectID.key })
        where !seen.contains(object) {
            order.append(object)
        }
        return order
    }

    private func isMember(_ object: ManagedObject) -> Bool {
        added.contains(object) || (committed?.contains(object) == true && !removed.contains(object))
    }

    // While the committed set is not loaded, an object added and then removed may have been
    // there all along: the removal is kept, not cancelled against the addition (and the other
    // way round), so that loading cannot bring it back.

    /// Adds an object; an ordered relationship puts it at `index` (the end when nil or beyond),
    /// and leaves an object already there where it is, as `NSMutableOrderedSet` does.
    func insert(_ object: ManagedObject, at index: Int? = nil) {
        if isOrdered, committed != nil, !isMember(object) {
            var order = takeOrder()
            order.insert(object, at: min(max(index ?? order.count, 0), order.count))
            changedOrder = order
        }
        removed.remove(object)
        if committed?.contains(object) != true { added.insert(object) }
    }

    func remove(_ object: ManagedObject) {
        if isOrdered, committed != nil, isMember(object) {
            var order = takeOrder()
            if let position = order.firstIndex(of: object) { order.remove(at: position) }
            changedOrder = order
        }
        added.remove(object)
        if committed?.contains(object) ?? true { removed.insert(object) }
    }

    /// Puts the current contents in a new order: objects of `order` that are not in the
    /// relationship are passed over, and objects it does not list keep their turn after it.
    func reorder(_ order: [ManagedObject]) {
        guard isOrdered, committed != nil else { return }
        changedOrder = order
        changedOrder = reconciledOrder()
    }

    /// The current order, moved out of the stored property so that changing it does not copy.
    private func takeOrder() -> [ManagedObject] {
        let order = orderedCurrent ?? []
        changedOrder = nil
        return order
    }

    /// The changes have reached the parent store: the current contents become the committed ones.
    func commit() {
        if isOrdered { committedOrder = orderedCurrent }
        committed = current
        added = []
        removed = []
        changedOrder = nil
    }

    /// Forgets the committed set (it changed in the parent store) but keeps local changes.
    func refault() {
        committed = nil
        committedOrder = nil
    }

    /// Drops local changes.
    func discardChanges() {
        added = []
        removed = []
        changedOrder = nil
    }

    /// The relationship as last committed, without local changes.
    func committedCopy() -> ToManyRelationship {
        let copy = ToManyRelationship(committed: committed, isOrdered: isOrdered)
        copy.committedOrder = committedOrder
        return copy
    }

    func copy() -> ToManyRelationship {
        let copy = committedCopy()
        copy.added = added
        copy.removed = removed
        copy.changedOrder = changedOrder
        return copy
    }
}
