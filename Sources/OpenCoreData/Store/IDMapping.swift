/// Temporary IDs and the permanent IDs a store gave them, in the order the IDs were asked for
/// (for a save, the order of its new rows): walked in step with the rows or objects they belong
/// to, a save's 100,000 new IDs need no hashing; ``dictionary()`` serves lookups by ID.
package struct IDMapping: Sendable, Sequence {
    package typealias Element = (old: ManagedObjectID, new: ManagedObjectID)

    package private(set) var pairs: [Element] = []

    package init() {}

    init(pairs: [Element]) {
        self.pairs = pairs
    }

    /// Permanent IDs for the temporary IDs among `ids`, in their order, with primary keys from
    /// `allocate` (called once per entity hierarchy, for that many keys).
    package static func allocating(for ids: [ManagedObjectID], storeIdentifier: String,
                           _ allocate: (_ root: EntityDescription, _ count: Int) throws -> [Int64]) rethrows -> IDMapping {
        // A save holds few hierarchies: their positions, by root, in a short list.
        var groups: [(root: EntityDescription, positions: [Int])] = []
        for (position, id) in ids.enumerated() where id.isTemporaryID {
            let root: EntityDescription = id.entity.rootEntity
            if let last = groups.indices.last, groups[last].root === root {
                groups[last].positions.append(position)
            } else if let group = groups.firstIndex(where: { $0.root === root }) {
                groups[group].positions.append(position)
            } else {
                groups.append((root, [position]))
            }
        }
        var permanent = [ManagedObjectID?](repeating: nil, count: ids.count)
        for group in groups {
            for (position, key) in zip(group.positions, try allocate(group.root, group.positions.count)) {
                permanent[position] = ManagedObjectID(entity: ids[position].entity, storeIdentifier: storeIdentifier, primaryKey: key)
            }
        }
        return IDMapping(pairs: zip(ids, permanent).compactMap { old, new in new.map { (old, $0) } })
    }

    package var isEmpty: Bool { pairs.isEmpty }
    package var count: Int { pairs.count }

    package func makeIterator() -> IndexingIterator<[Element]> { pairs.makeIterator() }

    /// The mapping for lookups by temporary ID. Built anew by each call.
    package func dictionary() -> [ManagedObjectID: ManagedObjectID] {
        Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The permanent IDs of `ids`, in their order: the mapped ones from this mapping, taken in
    /// step (the mapping was made for these IDs, in this order), the others unchanged.
    package func replacing(inOrder ids: [ManagedObjectID]) -> [ManagedObjectID] {
        var next = pairs.makeIterator()
        var pending = next.next()
        return ids.map { id in
            guard let pair = pending, pair.old == id else { return id }
            pending = next.next()
            return pair.new
        }
    }
}
