import Foundation

/// What a save records as changes, from its request: shared by the stores, so that each records
/// the same updated properties and tombstones.
package enum HistoryChanges {
    /// The stored properties an update writes, by name, in slot order.
    package static func updatedProperties(of update: RowUpdate) -> [String] {
        let properties = update.snapshot.objectID.entity.slots
        return update.changedSlots.map { properties[$0].name }
    }

    /// The attributes of a deleted row that its entity preserves, with their values in
    /// `preImage` (the row as the store had it before the save); empty without a pre-image.
    package static func tombstone(of id: ManagedObjectID, preImage: RowSnapshot?) -> [String: PropertyValue] {
        guard let preImage else { return [:] }
        var values: [String: PropertyValue] = [:]
        for attribute in id.entity.preservedAttributes {
            values[attribute.name] = preImage.value(at: attribute.slot)
        }
        return values
    }

    /// The attribute values a change overwrote (see ``HistoryChangeRecord/priorValues``): the
    /// attributes at `slots` (nil for every attribute) in `preImage`; empty without a pre-image.
    package static func priorValues(of id: ManagedObjectID, slots: [Int]?, preImage: RowSnapshot?) -> [String: PropertyValue] {
        guard let preImage else { return [:] }
        let properties = id.entity.slots
        var values: [String: PropertyValue] = [:]
        for slot in slots ?? Array(properties.indices) where properties.indices.contains(slot) {
            guard let attribute = properties[slot] as? AttributeDescription, attribute.isPersistent else { continue }
            values[attribute.name] = preImage.value(at: slot)
        }
        return values
    }

    /// Every change of a save whose IDs are permanent, in the order the store numbers them: new
    /// rows, updated rows, deleted rows.
    package static func records(of save: SaveRequest, preImages: [ManagedObjectID: RowSnapshot],
                                firstChangeID: Int64) -> [HistoryChangeRecord] {
        var records: [HistoryChangeRecord] = []
        records.reserveCapacity(save.inserted.count + save.updated.count + save.deleted.count)
        var next = firstChangeID
        func add(_ id: ManagedObjectID, _ type: PersistentHistoryChangeType, properties: [String] = [],
                 tombstone: [String: PropertyValue] = [:], prior: [String: PropertyValue] = [:]) {
            records.append(HistoryChangeRecord(changeID: next, objectID: id, type: type,
                                               updatedProperties: properties, tombstone: tombstone, priorValues: prior))
            next += 1
        }
        for row in save.inserted { add(row.objectID, .insert) }
        for update in save.updated {
            let id = update.snapshot.objectID
            add(id, .update, properties: updatedProperties(of: update),
                prior: priorValues(of: id, slots: update.changedSlots, preImage: preImages[id]))
        }
        for deletion in save.deleted {
            let id = deletion.objectID
            add(id, .delete, tombstone: tombstone(of: id, preImage: preImages[id]),
                prior: priorValues(of: id, slots: nil, preImage: preImages[id]))
        }
        return records
    }
}

extension EntityDescription {
    /// The persistent attributes, inherited ones included, whose values a deletion keeps in its
    /// history tombstone.
    var preservedAttributes: [AttributeDescription] {
        slots.compactMap { property in
            guard let attribute = property as? AttributeDescription, attribute.isPersistent,
                  attribute.preservesValueInHistoryOnDeletion else { return nil }
            return attribute
        }
    }
}
