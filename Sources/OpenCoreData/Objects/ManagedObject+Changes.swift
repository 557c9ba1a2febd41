import Foundation

/// What changed on an object, by key.
extension ManagedObject {
    /// The keys changed since the object was last saved or fetched, with their new values. For an
    /// inserted object, every property that has a value.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        let slots = state.isInserted ? entity.slots.map(\.slot) : changedSlots
        for slot in slots {
            let name = entity.slots[slot].name
            if let value = value(forKey: name) { result[name] = value }
        }
        return result
    }

    /// The values as last saved or fetched, for `keys` (every property when nil). Empty for an
    /// inserted object, which has no saved values.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard !state.isInserted else { return [:] }
        materialize()
        let properties = keys.map { $0.compactMap { entity.property(named: $0) } } ?? entity.slots
        var result: [String: Any] = [:]
        for property in properties {
            let slot = savedValues[property.slot] ?? slots[property.slot]
            if let value = publicValue(of: slot, for: property) { result[property.name] = value }
        }
        return result
    }

    /// The keys changed since pending changes were last processed, with their values before the
    /// change. During a ``ManagedObjectContext/didChangeObjectsNotification`` it describes the event
    /// being reported.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        let oldValues: [Int: Slot]
        if let event = managedObjectContext?.deliveringEvent {
            let reported = event.oldValues[ObjectIdentifier(self)]
            if event.inserted.contains(self) {
                oldValues = (reported ?? [:]).merging(insertEventDefaults) { recorded, _ in recorded }
            } else {
                oldValues = reported ?? eventValues
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

    /// A slot's value as key-value coding returns it.
    private func publicValue(of slot: Slot, for property: PropertyDescription) -> Any? {
        switch slot {
        case .attribute(let value):
            return value.boxedValue(for: (property as? AttributeDescription)?.attributeType ?? .stringAttributeType)
        case .toOne(let object):
            return object
        case .toMany(let relationship):
            return relationship.current
        }
    }
}
