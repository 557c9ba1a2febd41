/// What one or more commits changed, by object ID: the form in which commits that no context of
/// this coordinator made (batch requests, other coordinators, other processes) reach the contexts
/// that merge automatically. Values are not carried: a merging context reads them from its store.
struct StoreChange: Sendable {
    private(set) var inserted: [ManagedObjectID] = []
    private(set) var updated: [ManagedObjectID] = []
    private(set) var deleted: [ManagedObjectID] = []
    /// The names of the stored properties that changed, per updated object.
    private(set) var changedKeys: [ManagedObjectID: Set<String>] = [:]
    /// The attribute values the commits overwrote, per updated or deleted object: what a
    /// controller needs to find where the row was (see ``HistoryChangeRecord/priorValues``).
    private(set) var priorValues: [ManagedObjectID: [String: PropertyValue]] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The changes a store's history recorded for one transaction.
    init(_ record: HistoryTransactionRecord) {
        for change in record.changes {
            switch change.type {
            case .insert: inserted.append(change.objectID)
            case .update:
                updated.append(change.objectID)
                changedKeys[change.objectID, default: []].formUnion(change.updatedProperties)
                priorValues[change.objectID] = change.priorValues
            case .delete:
                deleted.append(change.objectID)
                priorValues[change.objectID] = change.priorValues
            }
        }
    }

    /// The changes of a save request the store committed, with temporary IDs of its new rows
    /// replaced by the permanent ones it assigned.
    init(_ request: SaveRequest, permanentIDs: IDMapping, preImages: [ManagedObjectID: RowSnapshot]) {
        inserted = permanentIDs.replacing(inOrder: request.inserted.map(\.objectID))
        for update in request.updated {
            let id = update.snapshot.objectID
            updated.append(id)
            let slots = id.entity.slots
            let names = update.changedSlots.compactMap { slot in slots.indices.contains(slot) && slots[slot].slot == slot ? slots[slot].name : nil }
            changedKeys[id, default: []].formUnion(names)
            priorValues[id] = HistoryChanges.priorValues(of: id, slots: update.changedSlots, preImage: preImages[id])
        }
        deleted = request.deleted.map(\.objectID)
        for id in deleted {
            priorValues[id] = HistoryChanges.priorValues(of: id, slots: nil, preImage: preImages[id])
        }
        // A link added or removed changes the to-many relationship at both of its ends.
        let untouched = Set(inserted).union(deleted)
        var alreadyUpdated = Set(updated)
        for change in request.joinChanges {
            let ends = [(change.source, change.relationship.name), (change.destination, change.relationship.inverseRelationship?.name)]
            for (id, name) in ends where !untouched.contains(id) {
                if alreadyUpdated.insert(id).inserted { updated.append(id) }
                if let name { changedKeys[id, default: []].insert(name) }
            }
        }
    }

    init() {}

    /// The new rows of a batch insert the store wrote without a save request.
    init(inserted: [ManagedObjectID]) {
        self.inserted = inserted
    }

    /// The rows of a batch update the store wrote without a save request: each changed the
    /// properties `changedKeys`, and overwrote `priorValues[i]`, the values of the attributes
    /// `names` of row `ids[i]`.
    init(updated ids: [ManagedObjectID], changedKeys keys: Set<String>, priorValues values: [[PropertyValue]], names: [String]) {
        updated = ids
        for (id, prior) in zip(ids, values) {
            changedKeys[id] = keys
            priorValues[id] = Dictionary(zip(names, prior), uniquingKeysWith: { first, _ in first })
        }
    }

    /// This change followed by `later`, as one: an object inserted and then changed is inserted,
    /// one changed or inserted and then deleted is deleted, and each object is named once.
    mutating func append(_ later: StoreChange) {
        let laterDeleted = Set(later.deleted)
        let insertedBefore = Set(inserted)
        inserted = inserted.filter { !laterDeleted.contains($0) } + later.inserted
        var updatedAfter = updated.filter { !laterDeleted.contains($0) }
        let alreadyUpdated = Set(updatedAfter)
        updatedAfter += later.updated.filter { !insertedBefore.contains($0) && !alreadyUpdated.contains($0) }
        updated = updatedAfter
        deleted += later.deleted
        for (id, keys) in later.changedKeys { changedKeys[id, default: []].formUnion(keys) }
        for id in laterDeleted { changedKeys[id] = nil }
        // What the earliest commit overwrote is what the merging context saw.
        for (id, values) in later.priorValues {
            priorValues[id, default: [:]].merge(values) { earlier, _ in earlier }
        }
    }
}

extension StoreChange {
    /// The same change with each object ID naming the entity of `model` of the same name: history
    /// read through one coordinator names its own model's entities, and another coordinator of the
    /// process may have loaded the same model file into a model of its own. Objects of entities
    /// `model` does not have are left out.
    func naming(entitiesOf model: ManagedObjectModel) -> StoreChange {
        let ids = inserted + updated + deleted
        guard ids.contains(where: { $0.entity.managedObjectModel !== model }) else { return self }
        func mapped(_ id: ManagedObjectID) -> ManagedObjectID? {
            guard id.entity.managedObjectModel !== model else { return id }
            guard let name = id.entity.name, let entity = model.compiledEntity(named: name), let store = id.storeIdentifier else { return nil }
            return ManagedObjectID(entity: entity, storeIdentifier: store, primaryKey: id.key)
        }
        var result = StoreChange()
        result.inserted = inserted.compactMap(mapped)
        result.updated = updated.compactMap(mapped)
        result.deleted = deleted.compactMap(mapped)
        for (id, keys) in changedKeys {
            if let id = mapped(id) { result.changedKeys[id] = keys }
        }
        for (id, values) in priorValues {
            if let id = mapped(id) { result.priorValues[id] = values }
        }
        return result
    }
}
