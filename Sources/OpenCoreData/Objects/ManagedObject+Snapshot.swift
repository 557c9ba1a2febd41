extension ManagedObject {
    /// The object's current values, to-ones as IDs; transient and to-many slots are `.null`.
    func currentSnapshot() -> RowSnapshot {
        materialize()
        // Both arrays read once: each read of a class's stored property is an exclusivity check.
        let properties = entity.slots
        let values = zip(properties, slots).map { property, slot -> PropertyValue in
            property.isPersistent ? storedValue(of: slot) : .null
        }
        return RowSnapshot(objectID: objectID, values: values, version: version)
    }

    /// The values as of the last save or fetch: current values with changed slots rolled back.
    func committedSnapshot() -> RowSnapshot {
        var snapshot = currentSnapshot()
        for (index, slot) in savedValues where entity.slots[index].isPersistent {
            snapshot.values[index] = storedValue(of: slot)
        }
        return snapshot
    }

    private func storedValue(of slot: Slot) -> PropertyValue {
        switch slot {
        case .attribute(let value): value
        case .toOne(let object): object.map { .object($0.objectID) } ?? .null
        case .toMany: .null
        }
    }

    /// Persistent slots changed since the last save (attributes, to-ones, and to-manys).
    var changedPersistentSlots: [Int] {
        changedSlots.filter { entity.slots[$0].isPersistent }
    }

    /// The changes of each to-many relationship since the last save, as IDs.
    func toManyChanges() -> [ToManyChange] {
        slots.enumerated().compactMap { index, slot in
            guard case .toMany(let relationship) = slot, relationship.hasChanges else { return nil }
            return ToManyChange(objectID: objectID, slot: index,
                                added: relationship.added.map(\.objectID),
                                removed: relationship.removed.map(\.objectID),
                                order: relationship.isOrdered ? relationship.orderedCurrent?.map(\.objectID) : nil)
        }
    }

    /// The saved values are now the committed ones.
    func commitChanges() {
        savedValues = [:]
        refusedAssignments = []
        for slot in slots {
            if case .toMany(let relationship) = slot { relationship.commit() }
        }
    }
}

extension ManagedObject {
    /// A slot holding a snapshot value: to-one IDs become objects of `context`.
    func slotValue(from value: PropertyValue, for property: PropertyDescription, in context: ManagedObjectContext) -> Slot {
        if property is AttributeDescription { return .attribute(value) }
        return .toOne(value.objectID.map { context.objectOnQueue(with: $0) })
    }

    /// Puts back the values as of the last save or fetch.
    func revertChanges() {
        for (index, slot) in savedValues { slots[index] = slot }
        savedValues = [:]
        refusedAssignments = []
        for slot in slots {
            if case .toMany(let relationship) = slot { relationship.discardChanges() }
        }
    }

    /// Takes newer committed values from the parent store while keeping this context's unsaved
    /// changes on top (Core Data's refresh with merging).
    func mergeCommitted(_ snapshot: RowSnapshot, in context: ManagedObjectContext) {
        // Merges reach a context in the order they were enqueued, which is not always the order
        // the saves committed in: never go back to an older version of the row. (Equal versions
        // are applied: a child's save forwarded by its parent carries new values at one version.)
        guard !state.isFault else {
            if case .snapshot(let cached)? = faultSource, cached.version > snapshot.version { return }
            faultSource = .snapshot(snapshot)
            return
        }
        guard snapshot.version >= version else { return }
        for property in entity.slots where property.isPersistent {
            let slot = property.slot
            if let relationship = property as? RelationshipDescription, relationship.isToMany {
                toManyRelationship(at: slot).refault()
                continue
            }
            let committed = slotValue(from: snapshot.value(at: slot), for: property, in: context)
            if savedValues[slot] != nil || (state.isInserted && eventValue(at: slot) != nil) {
                savedValues[slot] = committed
            } else {
                slots[slot] = committed
            }
        }
        version = snapshot.version
    }
}
