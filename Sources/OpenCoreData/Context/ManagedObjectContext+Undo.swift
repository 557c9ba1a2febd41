import Foundation

/// What undoing one processed change event does: objects it inserted leave, objects it deleted
/// come back, and the properties it changed get their values from before it.
struct UndoRecord {
    /// A property's value before the event: an attribute's or to-one's slot, or what the event
    /// added to and removed from a to-many (and an ordered one's order before it).
    enum Value {
        case slot(Slot)
        case toMany(added: Set<ManagedObject>, removed: Set<ManagedObject>, order: [ManagedObject]?)
    }

    var objectsToDelete: [ManagedObject] = []
    var objectsToRestore: [ManagedObject] = []
    var values: [(object: ManagedObject, slots: [Int: Value])] = []

    var isEmpty: Bool { objectsToDelete.isEmpty && objectsToRestore.isEmpty && values.isEmpty }
}

extension ManagedObjectContext {
    /// Undoes the last group of changes of ``undoManager``, as Core Data's `undo()` does: changes
    /// not processed yet are processed first, so that they are what is undone.
    public func undo() {
        assertOnQueue()
        processPendingChanges()
        undoManager?.undo()
    }

    /// Redoes the last group of changes ``undo()`` undid.
    public func redo() {
        assertOnQueue()
        processPendingChanges()
        undoManager?.redo()
    }

    /// Registers with ``undoManager`` what undoes a processed change event: not for merges (other
    /// contexts' saves are not this context's to undo, as in Core Data), and, while an undo or
    /// redo runs, into the record that reverses it.
    func registerUndo(of event: ContextEvent.ObjectsDidChange) {
        guard let undoManager, undoManager.isUndoRegistrationEnabled, !event.causedByMerge, !skipsUndoRegistration else { return }
        var record = UndoRecord()
        record.objectsToDelete = Array(event.inserted)
        record.objectsToRestore = Array(event.deleted)
        for object in event.updated.union(event.deleted) {
            guard let oldValues = event.oldValues[ObjectIdentifier(object)] else { continue }
            var slots: [Int: UndoRecord.Value] = [:]
            for (slot, old) in oldValues where slot < object.slots.count {
                slots[slot] = Self.undoValue(old, now: object.slots[slot])
            }
            record.values.append((object, slots))
        }
        guard !record.isEmpty else { return }
        if var collected = undoCollector {
            collected.objectsToDelete += record.objectsToDelete
            collected.objectsToRestore += record.objectsToRestore
            collected.values += record.values
            undoCollector = collected
            return
        }
        undoManager.registerUndo(withTarget: self) { context in context.applyUndo(record) }
    }

    /// A slot's value before an event, as undo puts it back: a to-many as what the event added
    /// and removed (so that undoing after a save, which folds changes into the committed
    /// contents, still takes out what the event put in).
    private static func undoValue(_ old: Slot, now current: Slot) -> UndoRecord.Value {
        guard case .toMany(let before) = old, case .toMany(let after) = current else { return .slot(old) }
        let order = before.isOrdered ? before.orderedCurrent : nil
        if let oldContents = before.current, let newContents = after.current {
            return .toMany(added: newContents.subtracting(oldContents), removed: oldContents.subtracting(newContents), order: order)
        }
        return .toMany(added: after.added.subtracting(before.added).union(before.removed.subtracting(after.removed)),
                       removed: after.removed.subtracting(before.removed).union(before.added.subtracting(after.added)),
                       order: order)
    }

    /// Reverses an event. The changes this makes form events of their own, which are collected
    /// into the record that reverses them, registered with the undo manager (which puts it on
    /// its redo stack while undoing, and back on its undo stack while redoing).
    func applyUndo(_ record: UndoRecord) {
        assertOnQueue()
        let outer = undoCollector
        undoCollector = UndoRecord()
        var restored: [ManagedObject] = []
        var events: [ObjectIdentifier: (ManagedObject, SnapshotEventType)] = [:]
        func note(_ object: ManagedObject, _ event: SnapshotEventType) {
            events[ObjectIdentifier(object), default: (object, [])].1.insert(event)
        }
        for object in record.objectsToRestore {
            if object.managedObjectContext == nil {
                reinsertSavedDeletion(object)
                note(object, .undoDeletion)
            } else if object.managedObjectContext === self, object.state.isDeleted {
                if restoreDeleted(object) { restored.append(object) }
                note(object, .undoDeletion)
            }
        }
        for (object, slots) in record.values where object.managedObjectContext === self {
            for (slot, value) in slots { object.restoreSlot(slot, to: value) }
            note(object, .undoUpdate)
        }
        for object in record.objectsToDelete where object.managedObjectContext === self && !object.state.isDeleted {
            delete(object)
            note(object, .undoInsertion)
        }
        for (object, flags) in events.values { object.awake(fromSnapshotEvents: flags) }
        processPendingChanges()
        var inverse = undoCollector ?? UndoRecord()
        inverse.objectsToDelete += restored
        undoCollector = outer
        guard !inverse.isEmpty else { return }
        undoManager?.registerUndo(withTarget: self) { context in context.applyUndo(inverse) }
    }

    /// Brings back an object whose deletion was saved: its row is gone, so it is inserted again,
    /// with its values, as a new object (a new temporary ID; Core Data keeps the old ID).
    private func reinsertSavedDeletion(_ object: ManagedObject) {
        if case .savedDeletion(let values) = object.faultSource {
            object.slots = values
            object.state.isFault = false
            object.faultSource = nil
        }
        object.identity = ManagedObjectID.makeTemporary(for: object.entity)
        object.attach(to: self)
        object.version = 0
        object.savedValues = [:]
        object.rebaseRelationshipsAsInserted()
        object.state.isDeleted = false
        insertAgain(object)
    }

    /// Brings back a deleted object: an inserted one is inserted again, a saved one is no longer
    /// marked for deletion. Returns whether the caller must record its coming back itself (a
    /// saved object's does not show as an insertion in the event).
    private func restoreDeleted(_ object: ManagedObject) -> Bool {
        object.state.isDeleted = false
        if deletedSet.contains(object) {
            deletedSet.remove(object)
            pending.deleted.remove(object)
            pending.updated.insert(object)
            scheduleProcessingPendingChanges()
            return true
        }
        insertAgain(object)
        return false
    }

    /// An object of this context that left it comes back as inserted, reported in the next event.
    private func insertAgain(_ object: ManagedObject) {
        register(object)
        markInserted(object)
        scheduleProcessingPendingChanges()
    }
}

extension ManagedObject {
    /// A new object's to-many relationships hold what they hold as additions, so that a save
    /// writes their links: for an object inserted again after its row was deleted.
    func rebaseRelationshipsAsInserted() {
        for (index, slot) in slots.enumerated() {
            guard case .toMany(let relationship) = slot else { continue }
            let fresh = ToManyRelationship(committed: [], isOrdered: relationship.isOrdered)
            for member in relationship.orderedCurrent ?? [] { fresh.insert(member) }
            slots[index] = .toMany(fresh)
        }
    }

    /// Puts back a property's value from before an undone event, without touching inverses: the
    /// event's other end was recorded too.
    func restoreSlot(_ slot: Int, to value: UndoRecord.Value) {
        switch value {
        case .slot(.attribute(let stored)):
            setAttributeValue(stored, at: slot)
        case .slot(.toOne(let object)):
            primitiveSetToOne(object, at: slot)
        case .slot(.toMany):
            break
        case .toMany(let added, let removed, let order):
            for object in added { primitiveRemove(object, fromToManyAt: slot) }
            for object in removed { primitiveInsert(object, intoToManyAt: slot) }
            if let order { reorderToManyValue(order, at: slot) }
        }
    }
}
