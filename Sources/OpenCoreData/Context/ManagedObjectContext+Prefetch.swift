/// Prefetching: loading the destinations of relationships for many objects at once.
extension ManagedObjectContext {
    /// Loads the relationships named by key paths (`"team"`, `"players.clubs"`) for `objects`, one
    /// parent read per relationship and one per level of destination values.
    func prefetch(_ keyPaths: [String]?, for objects: [ManagedObject]) throws {
        guard let keyPaths, !objects.isEmpty else { return }
        for keyPath in keyPaths {
            var level = objects
            for name in keyPath.split(separator: ".") where !level.isEmpty {
                level = try prefetchRelationship(String(name), of: level, keyPath: keyPath)
            }
        }
    }

    private func prefetchRelationship(_ name: String, of objects: [ManagedObject], keyPath: String) throws -> [ManagedObject] {
        var destinations: [ManagedObject] = []
        for group in Dictionary(grouping: objects, by: { ObjectIdentifier($0.entity) }).values {
            let entity = group[0].entity
            guard let relationship = entity.property(named: name) as? RelationshipDescription else {
                throw FetchRequestError(FetchRequestError.unknownKeyPath,
                                        "\(entity.entityName) has no relationship '\(name)' to prefetch (in '\(keyPath)')",
                                        entityName: entity.entityName, keyPath: keyPath)
            }
            if relationship.isToMany {
                let unloaded = group.filter { $0.toManyRelationship(at: relationship.slot).isFault }
                let related = try parentRelatedObjectIDs(of: unloaded.map(\.objectID), through: relationship)
                for object in unloaded {
                    object.toManyRelationship(at: relationship.slot).load((related[object.objectID] ?? []).map { self.objectOnQueue(with: $0) })
                }
                for object in group { destinations += object.toManyValue(at: relationship.slot) }
            } else {
                destinations += group.compactMap { $0.toOneValue(at: relationship.slot) }
            }
        }
        try fillFaults(destinations)
        return destinations
    }

    /// Loads the values of faults that have none at hand, in one parent read.
    func fillFaults(_ objects: [ManagedObject]) throws {
        var unique: [ObjectIdentifier: ManagedObject] = [:]
        for object in objects where object.state.isFault {
            if case .snapshot = object.faultSource { continue }
            unique[ObjectIdentifier(object)] = object
        }
        guard !unique.isEmpty else { return }
        let snapshots = try parentSnapshots(for: unique.values.map(\.objectID))
        let byID = Dictionary(snapshots.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        for object in unique.values {
            if let snapshot = byID[object.objectID] { object.faultSource = .snapshot(snapshot) }
        }
    }
}
