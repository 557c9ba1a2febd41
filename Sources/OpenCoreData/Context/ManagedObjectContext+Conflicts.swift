extension ManagedObjectContext {
    /// Applies the merge policy to rows that changed in the store, so that the save can be
    /// retried, or throws when the policy is to fail.
    func resolveConflicts(_ conflicts: [StoreConflict], attempt: Int) throws {
        let objects = conflicts.compactMap { conflict in registeredObject(for: conflict.objectID).map { (conflict, $0) } }
        let details = objects.map { conflict, object in
            MergeConflict(objectID: object.objectID,
                          changedKeys: object.changedSlots.map { object.entity.slots[$0].name },
                          objectVersion: object.version, storeVersion: conflict.current?.version)
        }
        // Another writer keeps winning the race: give up rather than loop.
        guard mergePolicy.mergeType != .errorMergePolicyType, attempt < 16 else {
            throw ObjectGraphError(ObjectGraphError.mergeConflict, "\(conflicts.count) object\(conflicts.count == 1 ? "" : "s") changed in the store since this context read them; nothing was saved (set mergePolicy to merge them)", conflicts: details)
        }
        for (conflict, object) in objects {
            if let current = conflict.current {
                resolve(object, against: current)
            } else {
                resolveDeletedInStore(object)
            }
        }
    }

    /// The row still exists with newer values: combine them with this context's per the policy.
    private func resolve(_ object: ManagedObject, against current: RowSnapshot) {
        let committed = object.committedSnapshot()
        let policy = mergePolicy.mergeType
        if policy == .rollbackMergePolicyType {
            object.revertChanges()
            if object.isDeleted { undelete(object) }
        }
        for property in object.entity.slots where property.isPersistent {
            let slot = property.slot
            let changedHere = object.savedValues[slot] != nil
            let changedThere = committed.value(at: slot) != current.value(at: slot)
            if property is RelationshipDescription, (property as? RelationshipDescription)?.isToMany == true {
                if changedThere || policy == .rollbackMergePolicyType { object.toManyRelationship(at: slot).refault() }
                continue
            }
            let keepsLocal = changedHere && (policy == .mergeByPropertyObjectTrumpMergePolicyType
                || policy == .overwriteMergePolicyType
                || (policy == .mergeByPropertyStoreTrumpMergePolicyType && !changedThere))
            if keepsLocal {
                object.savedValues[slot] = object.slotValue(from: current.value(at: slot), for: property, in: self)
            } else {
                object.slots[slot] = object.slotValue(from: current.value(at: slot), for: property, in: self)
                object.savedValues[slot] = nil
            }
        }
        if policy == .overwriteMergePolicyType {
            // Writing every property makes the row exactly the object.
            for property in object.entity.slots where property.isPersistent && object.savedValues[property.slot] == nil {
                if let relationship = property as? RelationshipDescription, relationship.isToMany { continue }
                object.savedValues[property.slot] = object.slots[property.slot]
            }
        }
        object.version = current.version
    }

    /// The row is gone. Rollback and store-trump accept the deletion; object-trump and overwrite
    /// write the object back as a new row with the same key.
    private func resolveDeletedInStore(_ object: ManagedObject) {
        if object.isDeleted {
            deletedSet.remove(object)
            unregister(object)
            return
        }
        switch mergePolicy.mergeType {
        case .mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType:
            changedSet.remove(object)
            object.savedValues = [:]
            object.state.isInserted = true
            insertedSet.insert(object)
        default:
            object.revertChanges()
            changedSet.remove(object)
            unregister(object)
            object.state.isInaccessible = true
            pending.deleted.insert(object)
        }
    }

    private func undelete(_ object: ManagedObject) {
        object.state.isDeleted = false
        deletedSet.remove(object)
    }
}
