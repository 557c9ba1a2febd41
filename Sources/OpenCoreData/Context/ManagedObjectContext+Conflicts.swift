extension ManagedObjectContext {
    /// Applies the merge policy to rows that changed in the store, so that the save can be
    /// retried, or throws when the policy is to fail.
    func resolveConflicts(_ conflicts: [StoreConflict], attempt: Int) throws {
        let objects = conflicts.compactMap { conflict in registeredObjectIfAlive(for: conflict.objectID).map { (conflict, $0) } }
        let details = objects.map { conflict, object in
            MergeConflict(objectID: object.objectID,
                          changedKeys: object.changedSlots.map { object.entity.slots[$0].name },
                          objectVersion: object.version, storeVersion: conflict.current?.version)
        }
        let count = "\(conflicts.count) object\(conflicts.count == 1 ? "" : "s")"
        guard mergePolicy.mergeType != .errorMergePolicyType else {
            throw ObjectGraphError(ObjectGraphError.mergeConflict, "\(count) changed in the store since this context read them; nothing was saved (set mergePolicy to merge them)", conflicts: details)
        }
        // Another process keeps winning the race: give up rather than loop.
        guard attempt < 100 else {
            throw ObjectGraphError(ObjectGraphError.mergeConflict, "\(count) kept changing in the store while this save was merged with \(mergePolicy); nothing was saved after \(attempt) attempts", conflicts: details)
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
        var tookStoreValues = false
        if policy == .rollbackMergePolicyType {
            object.revertChanges()
            if object.isDeleted { undelete(object) }
        }
        for property in object.entity.slots where property.isPersistent {
            let slot = property.slot
            let changedHere = object.savedValues[slot] != nil
            let changedThere = committed.value(at: slot) != current.value(at: slot)
            if let relationship = property as? RelationshipDescription, relationship.isToMany {
                // The row changed, so its to-many contents may have too: reload them on next
                // access, keeping this context's additions and removals.
                object.toManyRelationship(at: slot).refault()
                continue
            }
            let keepsLocal: Bool
            switch policy {
            case .overwriteMergePolicyType: keepsLocal = true
            case .mergeByPropertyObjectTrumpMergePolicyType: keepsLocal = changedHere
            case .mergeByPropertyStoreTrumpMergePolicyType: keepsLocal = changedHere && !changedThere
            default: keepsLocal = false
            }
            // Keeping a local value means writing it: the store's value becomes the committed one.
            let stored = object.slotValue(from: current.value(at: slot), for: property, in: self)
            if keepsLocal {
                object.savedValues[slot] = stored
            } else {
                if changedHere || changedThere, object.eventValues[slot] == nil {
                    // Observers (a fetched results controller) hear of the store's value like
                    // of any other change.
                    object.eventValues[slot] = object.slots[slot].detachedCopy
                    tookStoreValues = true
                }
                object.slots[slot] = stored
                object.savedValues[slot] = nil
            }
        }
        object.version = current.version
        if tookStoreValues, !object.isDeleted {
            pending.updated.insert(object)
            scheduleProcessingPendingChanges()
        }
        object.awake(fromSnapshotEvents: .mergePolicy)
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
            object.awake(fromSnapshotEvents: .mergePolicy)
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
