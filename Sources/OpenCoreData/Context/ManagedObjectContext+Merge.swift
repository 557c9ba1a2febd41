public import Foundation

extension ManagedObjectContext {
    /// Merges the changes of another context's save, described by its
    /// ``didSaveObjectsNotification``: deleted objects leave this context, updated ones take the
    /// new values (keeping this context's own unsaved changes on top), and observers hear about it
    /// through ``didChangeObjectsNotification`` and ``didMergeChangesObjectIDsNotification`` (which
    /// also names objects this context never loaded).
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
    ///                                        object: background, queue: nil) { note in
    ///     viewContext.perform { viewContext.mergeChanges(fromContextDidSave: note) }
    /// }
    /// ```
    ///
    /// Setting ``automaticallyMergesChangesFromParent`` does this for you. A notification that
    /// names objects by ID only, such as ``didSaveObjectIDsNotification`` or a history
    /// transaction's ``PersistentHistoryTransaction/objectIDNotification()``, is merged as
    /// ``mergeChanges(fromRemoteContextSave:into:)`` merges: values come from the store.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        assertOnQueue()
        if let saved = notification.userInfo?[NotificationKey.savedChanges.rawValue] as? SavedChanges {
            mergeSavedChanges(saved)
            return
        }
        mergeChanges(byID: notification.userInfo ?? [:])
    }

    /// Merges changes made by something other than a context, such as a batch request or another
    /// process, into each of `contexts`. The dictionary holds arrays or sets of object IDs (or
    /// their URIs, or objects) under ``NotificationKey/insertedObjectIDs``, `updatedObjectIDs` and
    /// `deletedObjectIDs` (or the plain `inserted`, `updated`, `deleted` keys).
    public static func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
                                    into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(byID: changeNotificationData) }
        }
    }

    /// Merges changes known only by ID: current values come from the parent store.
    func mergeChanges(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID],
                      changedKeys: [ManagedObjectID: Set<String>] = [:]) {
        advanceQueryGeneration()
        var saved = SavedChanges()
        saved.deleted = deleted
        saved.changedKeys = changedKeys
        do {
            saved.inserted = try parentSnapshots(for: inserted)
            saved.updated = try parentSnapshots(for: updated.filter { registeredObjectIfAlive(for: $0) != nil })
        } catch {
            Log.context.error("merging changes: could not read current values: \(error)")
        }
        let found = Set(saved.updated.map(\.objectID))
        // Updated objects whose rows are gone were deleted meanwhile.
        saved.deleted += updated.filter { registeredObjectIfAlive(for: $0) != nil && !found.contains($0) }
        mergeSavedChanges(saved, reportingUpdated: updated)
    }

    /// Applies another context's save to this one (see ``mergeChanges(fromContextDidSave:)``).
    ///
    /// - Parameters:
    ///   - extraUpdated: Objects reported as updated though not registered here.
    ///   - extraRows: Rows of some of them, read once for every observer (a controller holding a
    ///     row it never loaded would otherwise read it from the store itself).
    func mergeSavedChanges(_ changes: SavedChanges, reportingUpdated extraUpdated: [ManagedObjectID] = [],
                           withRows extraRows: [RowSnapshot] = []) {
        assertOnQueue()
        if changes.source == ObjectIdentifier(self) { return }
        advanceQueryGeneration()
        // This context's own changes are reported on their own first, so that observers can tell
        // them from what the merge changes.
        processPendingChanges()
        var event = ContextEvent.DidMerge(merging: changes, alsoUpdated: extraUpdated)
        event.committedRows += extraRows

        for id in changes.deleted {
            guard let object = registeredObjectIfAlive(for: id) else { continue }
            forgetMergedDeletion(object)
        }
        for snapshot in changes.updated {
            guard let object = registeredObjectIfAlive(for: snapshot.objectID), !object.state.isInaccessible else { continue }
            object.mergeCommitted(snapshot, in: self)
            pending.refreshed.insert(object)
            event.refreshed.insert(object)
        }
        mergeToManyChanges(changes.toManyChanges)
        pendingChangesComeFromMerge = !pending.isEmpty
        processPendingChanges()
        deliver(.didMerge(event))
        notifyChildren(of: changes, except: nil)
    }

    /// A deletion saved elsewhere: the object leaves this context.
    private func forgetMergedDeletion(_ object: ManagedObject) {
        insertedSet.remove(object)
        changedSet.remove(object)
        deletedSet.remove(object)
        pending.updated.remove(object)
        unregister(object)
        object.state.isDeleted = true
        pending.deleted.insert(object)
    }

    /// Applies to-many additions and removals of a save merged from elsewhere to the committed
    /// contents of loaded relationships (relationships not loaded read the new contents when
    /// they are); an ordered relationship takes the saved order.
    private func mergeToManyChanges(_ changes: [ToManyChange]) {
        for change in changes {
            guard let object = registeredObjectIfAlive(for: change.objectID), !object.state.isFault else { continue }
            let relationship = object.toManyRelationship(at: change.slot)
            if relationship.isOrdered, let order = change.order {
                if !relationship.isFault { relationship.load(order.map { self.object(with: $0) }) }
                continue
            }
            guard var committed = relationship.committed else { continue }
            for id in change.added { committed.insert(self.object(with: id)) }
            for id in change.removed { if let removed = registeredObjectIfAlive(for: id) { committed.remove(removed) } }
            relationship.load(Array(committed))
        }
    }

    /// Tells auto-merging children that their parent's contents changed.
    func notifyChildren(of changes: SavedChanges, except source: ObjectIdentifier?) {
        for child in childContexts
        where ObjectIdentifier(child) != source && child.automaticallyMergesChangesFromParent {
            child.perform { child.mergeSavedChanges(changes) }
        }
    }

    // MARK: Child saves

    /// A child context saved: its changes become this context's unsaved changes.
    ///
    /// Every object the child inserted joins first, so that relationships among new objects
    /// find their destinations whatever order the child listed them in; then values, to-many
    /// changes and deletions apply to the objects whether or not this context had loaded them
    /// (a change skipped here would never reach the store).
    func applyChildSave(_ changes: SavedChanges) throws {
        assertOnQueue()
        let inserted = changes.inserted.map { adoptInsertedObject($0.objectID) }
        for (object, snapshot) in zip(inserted, changes.inserted) {
            setPersistentValues(of: object, from: snapshot, slots: nil)
        }
        for snapshot in changes.updated {
            let object = self.object(with: snapshot.objectID)
            let names = changes.changedKeys[snapshot.objectID] ?? []
            let slots = names.compactMap { object.entity.slotByName[$0] }
            setPersistentValues(of: object, from: snapshot, slots: slots)
        }
        for change in changes.toManyChanges {
            let object = self.object(with: change.objectID)
            for id in change.added { object.primitiveInsert(self.object(with: id), intoToManyAt: change.slot) }
            for id in change.removed { object.primitiveRemove(self.object(with: id), fromToManyAt: change.slot) }
            if let order = change.order {
                object.reorderToManyValue(order.map { self.object(with: $0) }, at: change.slot)
            }
        }
        for id in changes.deleted {
            deleteWithoutPropagation(self.object(with: id))
        }
        processPendingChanges()
        var forwarded = changes
        forwarded.source = nil
        notifyChildren(of: forwarded, except: changes.source)
    }

    /// An object a child inserted joins this context as inserted, with the same temporary ID.
    /// If something here already named the object (``object(with:)`` made a fault for the ID,
    /// which can never load, since no store has the row), that stand-in becomes the new object,
    /// so that whatever points to it points to the object the child made.
    private func adoptInsertedObject(_ id: ManagedObjectID) -> ManagedObject {
        let object: ManagedObject
        if let registered = registeredObjectIfAlive(for: id) {
            guard !registered.state.isInserted, !registered.state.isDeleted else { return registered }
            object = registered
            object.faultSource = nil
            object.state.isFault = false
            object.state.isInaccessible = false
        } else {
            let entity = id.entity
            object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
            object.identity = id
            object.attach(to: self)
            register(object)
        }
        object.applyDefaults()
        markInserted(object)
        return object
    }

    /// Copies snapshot values into an object without touching inverses: the child's save holds
    /// both ends of every relationship change.
    private func setPersistentValues(of object: ManagedObject, from snapshot: RowSnapshot, slots: [Int]?) {
        for property in object.entity.slots where property.isPersistent && (slots?.contains(property.slot) ?? true) {
            if let relationship = property as? RelationshipDescription {
                if !relationship.isToMany {
                    object.primitiveSetToOne(snapshot.value(at: property.slot).objectID.map { self.object(with: $0) }, at: property.slot)
                }
            } else {
                object.setAttributeValue(snapshot.value(at: property.slot), at: property.slot)
            }
        }
    }

    /// A deletion a child saved: its delete rules already ran in the child.
    private func deleteWithoutPropagation(_ object: ManagedObject) {
        guard !object.isDeleted else { return }
        delete(object)
        pending.deletionsToPropagate.removeAll { $0 === object }
    }
}
