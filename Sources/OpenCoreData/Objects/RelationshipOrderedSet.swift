public import Foundation

extension ManagedObject {
    /// A live view of an ordered to-many relationship: inserting, removing and moving objects
    /// changes the relationship (and the inverses) at once. Core Data returns an
    /// `NSMutableOrderedSet` proxy; this view has its methods, under the same names.
    ///
    /// ```swift
    /// let songs = playlist.mutableOrderedSetValue(forKey: "songs")
    /// songs.insert(intro, at: 0)
    /// songs.moveObjects(at: IndexSet(integer: 3), to: 1)
    /// ```
    ///
    /// A key that is not an ordered to-many relationship, or an index beyond the relationship's
    /// objects, changes nothing and is reported by the next save, which throws a
    /// ``ValidationError`` naming it (Core Data raises an exception).
    public func mutableOrderedSetValue(forKey key: String) -> RelationshipOrderedSet {
        let relationship = entity.property(named: key) as? RelationshipDescription
        let isOrderedToMany = relationship.map { $0.isToMany && $0.isOrdered } ?? false
        if !isOrderedToMany {
            refuse(key: key, "\(entity.entityName) has no ordered to-many relationship '\(key)'")
        }
        return RelationshipOrderedSet(owner: self, key: key, slot: isOrderedToMany ? relationship?.slot : nil)
    }
}

/// An ordered to-many relationship you can change in place, returned by
/// ``ManagedObject/mutableOrderedSetValue(forKey:)``, with `NSMutableOrderedSet`'s methods.
///
/// Indexes are those of ``array`` at the time of the call. Inserting an object the relationship
/// already holds leaves it where it is, as `NSMutableOrderedSet` does; an index out of range
/// changes nothing and makes the next save throw.
public struct RelationshipOrderedSet: Sequence {
    let owner: ManagedObject
    let key: String
    let slot: Int?

    /// The objects in order.
    public var array: [ManagedObject] {
        slot.map { owner.orderedToManyValue(at: $0) } ?? []
    }

    /// The objects, without their order.
    public var set: Set<ManagedObject> {
        slot.map { owner.toManyValue(at: $0) } ?? []
    }

    /// How many objects the relationship holds.
    public var count: Int { array.count }

    /// The first object, or nil when the relationship is empty.
    public var firstObject: ManagedObject? { array.first }

    /// The last object, or nil when the relationship is empty.
    public var lastObject: ManagedObject? { array.last }

    /// The object at `index`, or nil when the index is out of range.
    public func object(at index: Int) -> ManagedObject? {
        let objects = array
        return objects.indices.contains(index) ? objects[index] : nil
    }

    /// The position of `object`, or `NSNotFound` when the relationship does not hold it.
    public func index(of object: ManagedObject) -> Int {
        array.firstIndex(of: object) ?? NSNotFound
    }

    /// Whether `object` is in the relationship.
    public func contains(_ object: ManagedObject) -> Bool { set.contains(object) }

    // MARK: Changing

    /// Appends an object, updating its inverse.
    public func add(_ object: ManagedObject) {
        if let slot { owner.addToManyValue(object, at: slot) }
    }

    /// Appends objects, updating their inverses.
    public func addObjects(from objects: some Sequence<ManagedObject>) {
        for object in objects { add(object) }
    }

    /// Inserts an object at `index` (0 through ``count``).
    public func insert(_ object: ManagedObject, at index: Int) {
        guard let slot, checkInsertion(at: index) else { return }
        owner.addToManyValue(object, at: slot, index: index)
    }

    /// Inserts objects so that they end up at `indexes`, as `NSMutableOrderedSet` does.
    public func insert(_ objects: [ManagedObject], at indexes: IndexSet) {
        guard indexes.count == objects.count else {
            refuse("\(objects.count) objects were given for \(indexes.count) indexes")
            return
        }
        var order = array
        for (object, index) in zip(objects, indexes) where !order.contains(object) {
            guard index <= order.count else {
                refuse("index \(index) is beyond the \(order.count) objects of \(owner.entity.entityName).\(key)")
                return
            }
            order.insert(object, at: index)
        }
        apply(order)
    }

    /// Removes an object, updating its inverse.
    public func remove(_ object: ManagedObject) {
        if let slot { owner.removeToManyValue(object, at: slot) }
    }

    /// Removes the object at `index`.
    public func removeObject(at index: Int) {
        guard let object = checkedObject(at: index) else { return }
        remove(object)
    }

    /// Removes the objects at `indexes`.
    public func removeObjects(at indexes: IndexSet) {
        let objects = array
        guard let last = indexes.last, last < objects.count else {
            if let last = indexes.last { refuse("index \(last) is beyond the \(objects.count) objects of \(owner.entity.entityName).\(key)") }
            return
        }
        for index in indexes { remove(objects[index]) }
    }

    /// Removes every object.
    public func removeAllObjects() {
        for object in array { remove(object) }
    }

    /// Puts `object` in place of the object at `index` (moving it there if the relationship
    /// already holds it elsewhere).
    public func replaceObject(at index: Int, with object: ManagedObject) {
        guard let replaced = checkedObject(at: index), replaced !== object else { return }
        var order = array
        order[index] = object
        if let previous = order.indices.first(where: { $0 != index && order[$0] === object }) { order.remove(at: previous) }
        apply(order)
    }

    /// Moves the objects at `indexes` so that they start at `index` of what remains once they
    /// are taken out, keeping their order, as `NSMutableOrderedSet` does.
    public func moveObjects(at indexes: IndexSet, to index: Int) {
        var order = array
        guard let last = indexes.last, last < order.count else {
            if let last = indexes.last { refuse("index \(last) is beyond the \(order.count) objects of \(owner.entity.entityName).\(key)") }
            return
        }
        let moved = indexes.map { order[$0] }
        for position in indexes.reversed() { order.remove(at: position) }
        guard index >= 0, index <= order.count else {
            refuse("cannot move \(moved.count) objects to index \(index) of \(owner.entity.entityName).\(key), which then holds \(order.count)")
            return
        }
        order.insert(contentsOf: moved, at: index)
        apply(order)
    }

    /// Swaps the objects at two indexes.
    public func exchangeObject(at index: Int, withObjectAt otherIndex: Int) {
        guard checkedObject(at: index) != nil, checkedObject(at: otherIndex) != nil else { return }
        var order = array
        order.swapAt(index, otherIndex)
        apply(order)
    }

    public func makeIterator() -> IndexingIterator<[ManagedObject]> { array.makeIterator() }

    // MARK: Helpers

    /// Makes the relationship hold `order`: objects it lacks are added, objects `order` lacks
    /// removed (both updating inverses), then the order set.
    private func apply(_ order: [ManagedObject]) {
        guard let slot else { return }
        let wanted = Set(order)
        let current = owner.toManyValue(at: slot)
        for object in current where !wanted.contains(object) { owner.removeToManyValue(object, at: slot) }
        for object in order where !current.contains(object) { owner.addToManyValue(object, at: slot) }
        owner.reorderToManyValue(order, at: slot)
    }

    private func checkedObject(at index: Int) -> ManagedObject? {
        guard slot != nil else { return nil }
        guard let object = object(at: index) else {
            refuse("index \(index) is beyond the \(count) objects of \(owner.entity.entityName).\(key)")
            return nil
        }
        return object
    }

    private func checkInsertion(at index: Int) -> Bool {
        let count = self.count
        guard index < 0 || index > count else { return true }
        refuse("cannot insert at index \(index) of \(owner.entity.entityName).\(key), which holds \(count) objects")
        return false
    }

    private func refuse(_ message: String) {
        owner.refuse(key: key, message)
    }
}
