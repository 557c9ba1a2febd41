import Foundation

/// What changed on an object, by key.
extension ManagedObject {
    /// The keys changed since the object was last saved or fetched, with their new values
    /// (`NSNull` for a value set to nil). For an inserted object, every property that has a value.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        if state.isInserted {
            for property in entity.slots {
                if let value = value(forKey: property.name) { result[property.name] = value }
            }
            return result
        }
        for slot in changedSlots {
            let name = entity.slots[slot].name
            result[name] = value(forKey: name) ?? NSNull()
        }
        return result
    }

    /// The values as last saved or fetched, for `keys` (every property when nil). Empty for an
    /// inserted object, which has no saved values. A to-many relationship gives its committed
    /// contents once loaded; one not read yet (a relationship fault) is left out rather than read.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard !state.isInserted else { return [:] }
        materialize()
        let properties = keys.map { $0.compactMap { entity.property(named: $0) } } ?? entity.slots
        var result: [String: Any] = [:]
        for property in properties {
            var slot = savedValues[property.slot] ?? slots[property.slot]
            if case .toMany(let relationship) = slot { slot = .toMany(relationship.committedCopy()) }
            if let value = publicValue(of: slot, for: property) { result[property.name] = value }
        }
        return result
    }

    /// The keys changed since pending changes were last processed, with their values before the
    /// change. During a ``ManagedObjectContext/didChangeObjectsNotification`` it describes the event
    /// being reported.
    ///
    /// During a save, the event is the save: in ``willSave()`` and ``didSave()``, and for
    /// observers of ``ManagedObjectContext/willSaveObjectsNotification`` and
    /// ``ManagedObjectContext/didSaveObjectsNotification``, it holds the keys the save writes,
    /// with their values as last saved (for a new object, every property, with its default;
    /// nothing for a deleted one).
    ///
    /// ```swift
    /// override func didSave() {
    ///     if let oldName = changedValuesForCurrentEvent()["name"] as? String { renameFolder(from: oldName) }
    /// }
    /// ```
    public func changedValuesForCurrentEvent() -> [String: Any] {
        let oldValues: [Int: Slot]
        if let event = managedObjectContext?.deliveringEvent {
            switch event {
            case .willSave:
                oldValues = state.isInserted ? allDefaults : (state.isDeleted ? [:] : valuesBeforeChanges)
            case .didSave(let save):
                oldValues = save.inserted.contains(self) ? allDefaults : (save.oldValues[ObjectIdentifier(self)] ?? [:])
            case .objectsDidChange(let change) where change.inserted.contains(self):
                oldValues = (change.oldValues[ObjectIdentifier(self)] ?? [:]).merging(insertEventDefaults) { recorded, _ in recorded }
            case .objectsDidChange(let change):
                oldValues = change.oldValues[ObjectIdentifier(self)] ?? eventValues
            case .didMerge, .objectIDsDidChange, .storeChangesMissed:
                oldValues = eventValues
            }
        } else {
            oldValues = currentEventValues
        }
        var result: [String: Any] = [:]
        for (index, slot) in oldValues {
            let property = entity.slots[index]
            result[property.name] = publicValue(of: slot, for: property) ?? NSNull()
        }
        return result
    }

    /// The slots changed since the last save, with their values then (a to-many's committed
    /// contents, or nil if it was never loaded).
    var valuesBeforeChanges: [Int: Slot] {
        var values = savedValues
        for (index, slot) in slots.enumerated() {
            if case .toMany(let relationship) = slot, relationship.hasChanges, values[index] == nil {
                values[index] = .toMany(relationship.committedCopy())
            }
        }
        return values
    }

    /// Every slot with the entity's default: what a new object's properties were before it was
    /// made.
    private var allDefaults: [Int: Slot] {
        Dictionary(uniqueKeysWithValues: entity.slots.map { ($0.slot, Self.defaultSlot(of: $0)) })
    }

    /// A slot's value as key-value coding returns it.
    private func publicValue(of slot: Slot, for property: PropertyDescription) -> Any? {
        switch slot {
        case .attribute(let value):
            return (property as? AttributeDescription)?.keyValue(of: value)
        case .toOne(let object):
            return object
        case .toMany(let relationship) where relationship.isOrdered:
            return relationship.orderedCurrent.map { NSOrderedSet(array: $0) }
        case .toMany(let relationship):
            return relationship.current
        }
    }
}
