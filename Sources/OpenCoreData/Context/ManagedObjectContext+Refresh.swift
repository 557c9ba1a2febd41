extension ManagedObjectContext {
    /// Reloads an object from the parent store.
    ///
    /// With `mergeChanges` false the object's unsaved changes are discarded and it turns back into
    /// a fault (which also releases the objects it references). With true, and unsaved changes,
    /// its values are reloaded and the changes reapplied on top; without changes it turns into a
    /// fault. Inserted objects are left alone.
    ///
    /// - Parameters:
    ///   - object: An object of this context.
    ///   - flag: Whether to keep the object's unsaved changes.
    public func refresh(_ object: ManagedObject, mergeChanges flag: Bool) {
        assertOnQueue()
        guard object.managedObjectContext === self, !object.state.isInserted, !object.state.isFault else { return }
        if flag, object.hasPropertyChanges {
            do {
                if let snapshot = try parentSnapshots(for: [object.objectID]).first {
                    object.mergeCommitted(snapshot, in: self)
                    object.awake(fromSnapshotEvents: .refresh)
                }
            } catch {
                Log.context.error("refreshing \(object.objectID): \(error)")
            }
        } else {
            object.willTurnIntoFault()
            object.revertChanges()
            changedSet.remove(object)
            pending.updated.remove(object)
            object.slots = []
            object.eventValues = [:]
            object.faultSource = nil
            object.state.isFault = true
            object.didTurnIntoFault()
        }
        pending.refreshed.insert(object)
        scheduleProcessingPendingChanges()
    }

    /// Refreshes every registered object, keeping unsaved changes: objects without changes become
    /// faults. Use it to release memory held by a long-lived context.
    public func refreshAllObjects() {
        assertOnQueue()
        for object in registeredObjects { refresh(object, mergeChanges: true) }
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted ones come back,
    /// and changed ones get their last saved values. Observers hear about it as an event in which
    /// the inserted objects are deleted, the deleted ones inserted, and the changed ones updated.
    public func rollback() {
        assertOnQueue()
        unfulfilledFaults = []
        undoManager?.removeAllActions(withTarget: self)
        let inserted = insertedSet.members
        let deleted = deletedSet.members
        let changed = changedSet.members
        for object in inserted {
            object.state.isInserted = false
            object.state.awaitsInsertEvent = false
            object.state.isDeleted = true
            unregister(object)
            if pending.inserted.remove(object) == nil { pending.deleted.insert(object) }
            pending.updated.remove(object)
        }
        for object in deleted {
            object.state.isDeleted = false
            if pending.deleted.remove(object) == nil { pending.inserted.insert(object) }
        }
        for object in changed.union(deleted) {
            // The event's old values are the ones being discarded.
            for index in object.changedSlots where object.eventValues[index] == nil {
                object.eventValues[index] = object.slots[index].detachedCopy
            }
            object.revertChanges()
            if !object.isDeleted, !inserted.contains(object) { pending.updated.insert(object) }
        }
        pending.deletionsToPropagate = []
        insertedSet.removeAll()
        deletedSet.removeAll()
        changedSet.removeAll()
        for object in changed.union(deleted) where !inserted.contains(object) {
            object.awake(fromSnapshotEvents: .rollback)
        }
        // Core Data's rollback empties the undo stack; the changes it makes are not undoable.
        skipsUndoRegistration = true
        scheduleProcessingPendingChanges()
    }

    /// Forgets every object: registered objects become unusable (their context is nil), unsaved
    /// changes are lost, and observers receive one event with ``NotificationKey/invalidatedAllObjects``.
    /// A fetched results controller must fetch again afterwards.
    public func reset() {
        assertOnQueue()
        advanceQueryGeneration()
        unfulfilledFaults = []
        undoManager?.removeAllActions(withTarget: self)
        for object in registry.removeAll() {
            object.detach()
            object.state.awaitsInsertEvent = false
        }
        retainedObjects = []
        insertedSet.removeAll()
        deletedSet.removeAll()
        changedSet.removeAll()
        pending = PendingEvent()
        var event = ContextEvent.ObjectsDidChange()
        event.invalidatedAll = true
        deliver(.objectsDidChange(event))
    }
}
