/// A set of objects that also remembers the order they joined it in: a save visits its inserted,
/// changed and deleted objects in a stable order, and sorting a `Set` of 100,000 objects for that
/// cost more than writing them. Membership and the `Set` form (which notifications carry) cost no
/// more than a plain set's.
struct OrderedObjectSet {
    /// The members, as a set.
    private(set) var members: Set<ManagedObject> = []
    /// The members in joining order, plus, after removals, objects no longer members (and, for an
    /// object removed and added again, its earlier place), until `ordered` drops them.
    private var order: [ManagedObject] = []
    private var removals = 0

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    func contains(_ object: ManagedObject) -> Bool { members.contains(object) }

    mutating func insert(_ object: ManagedObject) {
        if members.insert(object).inserted { order.append(object) }
    }

    @discardableResult
    mutating func remove(_ object: ManagedObject) -> ManagedObject? {
        guard let removed = members.remove(object) else { return nil }
        removals += 1
        // Drop stale places once they outnumber members, so that the array stays O(members).
        if removals > 64, removals > members.count {
            order = ordered
            removals = 0
        }
        return removed
    }

    mutating func removeAll() {
        members = []
        order = []
        removals = 0
    }

    /// The members in the order they last joined the set.
    var ordered: [ManagedObject] {
        guard removals > 0 else { return order }
        var placed = Set<ObjectIdentifier>(minimumCapacity: members.count)
        var result: [ManagedObject] = []
        result.reserveCapacity(members.count)
        for object in order.reversed() where members.contains(object) && placed.insert(ObjectIdentifier(object)).inserted {
            result.append(object)
        }
        return result.reversed()
    }

    /// The members in the order of their IDs' keys (for new objects, the order they were made
    /// in), joining order breaking ties. Members usually join in that order already, which costs
    /// one pass to check.
    var orderedByID: [ManagedObject] {
        let objects = ordered
        let keys = objects.map(\.objectID.key)
        if zip(keys, keys.dropFirst()).allSatisfy({ $0 <= $1 }) { return objects }
        return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map { objects[$0] }
    }

    func filter(_ isIncluded: (ManagedObject) throws -> Bool) rethrows -> Set<ManagedObject> {
        try members.filter(isIncluded)
    }

    func contains(where predicate: (ManagedObject) throws -> Bool) rethrows -> Bool {
        try members.contains(where: predicate)
    }
}

extension OrderedObjectSet: Sequence {
    func makeIterator() -> Set<ManagedObject>.Iterator { members.makeIterator() }
}
