extension ManagedObjectContext {
    /// Reports the changes made since the last call: runs delete rules of deleted objects, then
    /// posts ``didChangeObjectsNotification`` (and its typed and observer forms) with the
    /// inserted, updated and deleted objects.
    ///
    /// It runs by itself at the end of every ``perform(_:)`` block, at the start of ``save()``, and
    /// after changes made outside a block (as the next item on the context's queue). Call it to
    /// report changes at once:
    ///
    /// ```swift
    /// team.wins += 1
    /// context.processPendingChanges()   // observers see the update now
    /// ```
    public func processPendingChanges() {
        assertOnQueue()
        guard !isProcessingPendingChanges else { return }
        isProcessingPendingChanges = true
        defer {
            isProcessingPendingChanges = false
            skipsUndoRegistration = false
        }
        // Observers may change objects while hearing about a change; those changes form the next
        // event, reported in the same call.
        var rounds = 0
        while !pending.isEmpty, rounds < 64 {
            rounds += 1
            propagateDeletes()
            let event = takePendingEvent()
            registerUndo(of: event)
            deliver(.objectsDidChange(event))
        }
    }

    /// Records that an object changed, for the next event and the next save.
    func objectDidChange(_ object: ManagedObject) {
        if object.state.isInserted {
            if !pending.inserted.contains(object) { pending.updated.insert(object) }
        } else if !object.state.isDeleted {
            changedSet.insert(object)
            pending.updated.insert(object)
        }
        scheduleProcessingPendingChanges()
    }

    /// Moves the pending changes into an event, and starts a new one.
    private func takePendingEvent() -> ContextEvent.ObjectsDidChange {
        var event = ContextEvent.ObjectsDidChange()
        event.inserted = pending.inserted
        event.deleted = pending.deleted
        event.refreshed = pending.refreshed
        event.invalidated = pending.invalidated
        event.updated = pending.updated.subtracting(pending.deleted).subtracting(pending.inserted)
        event.causedByMerge = pendingChangesComeFromMerge
        pendingChangesComeFromMerge = false
        // Each set on its own, without building their union; an object in two of them has no
        // event values left the second time. Inserted objects get no changed slots: nothing reads
        // the changed keys of an insertion, and a save inserts 100,000 of them.
        event.oldValues.reserveCapacity(pending.updated.count + pending.inserted.count + pending.deleted.count)
        for objects in [pending.updated, pending.deleted] {
            for object in objects where !object.eventValues.isEmpty {
                let id = ObjectIdentifier(object)
                event.changedSlots[id] = Set(object.eventValues.keys)
                event.oldValues[id] = object.eventValues
                object.eventValues = [:]
            }
        }
        // A new object's changes before this report kept only which slots changed (see
        // ManagedObject.insertEventChangedSlots): their old values are read from it if asked for.
        for object in pending.inserted {
            object.state.awaitsInsertEvent = false
            guard !object.eventValues.isEmpty else { continue }
            event.oldValues[ObjectIdentifier(object)] = object.eventValues
            object.eventValues = [:]
        }
        pending = PendingEvent()
        return event
    }

    // MARK: Delete rules

    /// Runs the delete rules of objects deleted in this event, cascading as needed.
    private func propagateDeletes() {
        while let object = pending.deletionsToPropagate.popLast() {
            for case let relationship as RelationshipDescription in object.entity.slots {
                applyDeleteRule(of: relationship, for: object)
            }
        }
    }

    private func applyDeleteRule(of relationship: RelationshipDescription, for object: ManagedObject) {
        guard relationship.deleteRule == .nullifyDeleteRule || relationship.deleteRule == .cascadeDeleteRule else { return }
        let related: [ManagedObject] = relationship.isToMany
            ? Array(object.toManyValue(at: relationship.slot))
            : object.toOneValue(at: relationship.slot).map { [$0] } ?? []
        for destination in related where destination.managedObjectContext === self {
            if let inverse = relationship.inverseRelationship {
                destination.unlink(object, through: inverse)
            }
            if relationship.deleteRule == .cascadeDeleteRule {
                delete(destination)
            }
        }
    }

    // MARK: Delivery

    /// Hands an event to observers, then posts it as a notification and to async sequences.
    func deliver(_ event: ContextEvent) {
        // Restored afterwards: an event can be delivered while another is (an observer that
        // processes pending changes, a save's hooks).
        let previous = deliveringEvent
        deliveringEvent = event
        defer { deliveringEvent = previous }
        for observer in observers.values { observer(event) }
        // Built once: for 100,000 inserted objects, each ID set costs as much as writing a row.
        guard let changes = event.changes else { return }
        postNotification(for: event, changes: changes)
        yield(changes)
    }

    /// Hands an event to observers only: for bookkeeping events with no Core Data notification.
    func deliverToObservers(_ event: ContextEvent) {
        for observer in observers.values { observer(event) }
    }
}
