/// Sort and section keys, as a fetched results controller compares rows: of objects as they are
/// now, as the controller last heard of them, and of stored rows.
extension ResultsSource {
    /// The values of sort keys for an object as it is now.
    func currentSortKey(_ keys: [ResolvedSortKey], of object: ManagedObject) -> [PropertyValue] {
        keys.map { ManagedObjectContext.sortValue($0, of: object) }
    }

    /// The values of sort keys for an object as of the last processed changes, which observers
    /// heard of: changes made since are left out. During the delivery of `event`, the values
    /// before it: the event's old values are put back too.
    func processedSortKey(_ keys: [ResolvedSortKey], of object: ManagedObject,
                          before event: ContextEvent.ObjectsDidChange? = nil) -> [PropertyValue] {
        let reported = event?.oldValues[ObjectIdentifier(object)]
        return keys.map { key in
            guard let first = key.path.steps.first, let slot = Self.slot(of: first) else {
                return ManagedObjectContext.sortValue(key, of: object)
            }
            let old = if let reported { object.eventValue(at: slot, reported: reported) } else { object.eventValue(at: slot) }
            switch (first, old) {
            case (.attribute, .attribute(let value)?):
                return value
            case (.toOne, .toOne(let destination)?):
                return destination.map { Self.value(of: key, from: $0, skippingFirst: true) } ?? .null
            default:
                return ManagedObjectContext.sortValue(key, of: object)
            }
        }
    }

    /// The values of sort keys for a registered object from what the context holds in memory:
    /// its values as of the last processed changes, or the row a fault will fill from; nil when
    /// the object is not registered or its values are not in memory.
    ///
    /// Nil too for an object without changes of its own that a commit not merged yet changed:
    /// values loaded since that commit (a fault filled, a fetch) may include it, and the caller
    /// then reads the row as the context has seen it.
    func processedSortKey(_ keys: [ResolvedSortKey], ofRegistered id: ManagedObjectID) -> [PropertyValue]? {
        guard let object = context.registeredObjectIfAlive(for: id) else { return nil }
        if !object.hasChanges, context.unmergedCommits.withLock({ !$0.isEmpty && $0.touch(id) }) { return nil }
        if object.state.isFault {
            guard case .snapshot(let snapshot)? = object.faultSource else { return nil }
            return sortKey(keys, in: snapshot)
        }
        return processedSortKey(keys, of: object)
    }

    /// The values of sort keys from a stored row: attributes of the row itself are read from it;
    /// key paths through relationships follow the related objects in the context.
    func sortKey(_ keys: [ResolvedSortKey], in snapshot: RowSnapshot) -> [PropertyValue] {
        keys.map { key in
            switch key.path.steps.first {
            case .attribute(let attribute)?:
                return snapshot.value(at: attribute.slot)
            case .toOne(let relationship)?:
                guard let id = snapshot.value(at: relationship.slot).objectID else { return .null }
                return Self.value(of: key, from: context.object(with: id), skippingFirst: true)
            default:
                return .null
            }
        }
    }

    /// The value at the end of a key path of attributes and to-one relationships, for an object
    /// as it is now: an attribute's value, or the ID of the last relationship's destination;
    /// null when a relationship on the way is nil.
    static func value(along path: [PropertyDescription], of object: ManagedObject) -> PropertyValue {
        var current: ManagedObject? = object
        for step in path {
            guard let object = current else { return .null }
            if let attribute = step as? AttributeDescription {
                return object.attributeValue(at: attribute.slot)
            }
            let destination = object.toOneValue(at: step.slot)
            if step === path.last { return destination.map { .object($0.objectID) } ?? .null }
            current = destination
        }
        return .null
    }

    private static func slot(of step: ResolvedKeyPath.Step) -> Int? {
        switch step {
        case .attribute(let attribute): attribute.slot
        case .toOne(let relationship): relationship.slot
        default: nil
        }
    }

    private static func value(of key: ResolvedSortKey, from object: ManagedObject, skippingFirst: Bool) -> PropertyValue {
        var current: ManagedObject? = object
        for step in key.path.steps.dropFirst(skippingFirst ? 1 : 0) {
            switch step {
            case .toOne(let relationship): current = current?.toOneValue(at: relationship.slot)
            case .attribute(let attribute): return current?.attributeValue(at: attribute.slot) ?? .null
            default: return .null
            }
        }
        return .null
    }
}
