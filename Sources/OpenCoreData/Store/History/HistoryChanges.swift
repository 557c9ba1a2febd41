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

    /// Every change of a save whose IDs are permanent, in the order the store numbers them: new
    /// rows, updated rows, deleted rows.
    package static func records(of save: SaveRequest, preImages: [ManagedObjectID: RowSnapshot],
                                firstChangeID: Int64) -> [HistoryChangeRecord] {
        var records: [HistoryChangeRecord] = []
        records.reserveCapacity(save.inserted.count + save.updated.count + save.deleted.count)
        var next = firstChangeID
        func add(_ id: ManagedObjectID, _ type: PersistentHistoryChangeType,
                 properties: [String] = [], tombstone: [String: PropertyValue] = [:]) {
            records.append(HistoryChangeRecord(changeID: next, objectID: id, type: type,
                                               updatedProperties: properties, tombstone: tombstone))
            next += 1
        }
        for row in save.inserted { add(row.objectID, .insert) }
        for update in save.updated { add(update.snapshot.objectID, .update, properties: updatedProperties(of: update)) }
        for deletion in save.deleted {
            add(deletion.objectID, .delete, tombstone: tombstone(of: deletion.objectID, preImage: preImages[deletion.objectID]))
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
