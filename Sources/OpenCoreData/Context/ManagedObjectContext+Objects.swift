import Foundation

extension ManagedObjectContext {
    /// Registers a new object, giving it its entity's default values. Called by
    /// ``ManagedObject/init(entity:insertInto:)``; call it yourself for an object created with a nil
    /// context.
    ///
    /// - Parameter object: An object not yet in any context.
    public func insert(_ object: ManagedObject) {
        assertOnQueue()
        if object.managedObjectContext === self { return }
        precondition(object.managedObjectContext == nil, "\(object.objectID) already belongs to another context; insert a new object instead.")
        object.attach(to: self)
        object.materialize()
        object.state.isInserted = true
        object.state.isDeleted = false
        if object.entity.isAbstract {
            object.refuse(key: nil, "entity \(object.entity.entityName) is abstract; insert an object of one of its subentities")
        }
        register(object)
        markInserted(object)
        object.awakeFromInsert()
        scheduleProcessingPendingChanges()
    }

    /// Marks a registered object inserted, to be reported in the next event: for ``insert(_:)``,
    /// an object a child context inserted, and an object an undo brings back.
    func markInserted(_ object: ManagedObject) {
        object.state.isInserted = true
        insertedSet.insert(object)
        pending.inserted.insert(object)
        object.state.awaitsInsertEvent = true
        object.insertEventChangedSlots = 0
    }

    /// Marks an object for deletion at the next save. Its delete rules run when pending changes
    /// are processed: nullify removes it from inverse relationships, cascade deletes the objects
    /// it points to, deny makes the save fail while the relationship is not empty.
    ///
    /// Deleting an object inserted since the last save simply forgets it.
    public func delete(_ object: ManagedObject) {
        assertOnQueue()
        guard let owner = object.managedObjectContext else { return }
        precondition(owner === self, "\(object.objectID) belongs to another context; delete it there.")
        guard !object.state.isDeleted else { return }
        object.materialize()
        guard !object.state.isInaccessible else { return }
        // Marked first: the hook sees the object deleted (as Core Data's does), and deleting it
        // again from the hook does nothing.
        object.state.isDeleted = true
        object.prepareForDeletion()
        pending.updated.remove(object)
        if object.state.isInserted {
            object.state.isInserted = false
            object.state.awaitsInsertEvent = false
            insertedSet.remove(object)
            unregister(object)
            // An insert already reported must be taken back; one not reported yet cancels out.
            if pending.inserted.remove(object) == nil { pending.deleted.insert(object) }
        } else {
            deletedSet.insert(object)
            changedSet.remove(object)
            pending.deleted.insert(object)
        }
        pending.deletionsToPropagate.append(object)
        scheduleProcessingPendingChanges()
    }

    /// The object with this ID if this context has it registered, or nil: Core Data's
    /// `registeredObject(for:)`. Unlike ``object(with:)``, it never makes a fault or reads the
    /// store.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        assertOnQueue()
        return registeredObjectIfAlive(for: resolvedID(objectID))
    }

    /// The object with this ID: the registered one, or a fault that loads its values when first
    /// read. Does not check that the object exists; use ``existingObject(with:)`` for that.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        assertOnQueue()
        return objectOnQueue(with: objectID)
    }

    /// ``object(with:)`` for the library's own calls, made on the queue already: fetches and
    /// faults call it for every row and every to-one, and checking the queue each time (a
    /// dispatch look-up, about 200 instructions) cost a third as much as finding the object.
    func objectOnQueue(with objectID: ManagedObjectID) -> ManagedObject {
        let id = resolvedID(objectID)
        if let object = registeredObjectIfAlive(for: id) { return object }
        let fault = ManagedObject.makeFault(entity: id.entity, id: id, context: self)
        register(fault)
        return fault
    }

    /// The object with this ID, with its values loaded.
    ///
    /// - Throws: ``ObjectGraphError/objectNotFound`` if the object no longer exists in the parent
    ///   store, or is deleted in this context.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        assertOnQueue()
        let object = self.object(with: objectID)
        object.materialize()
        if object.state.isInaccessible {
            throw ObjectGraphError(ObjectGraphError.objectNotFound, "no object with ID \(objectID) exists in the store")
        }
        return object
    }

    /// Gives inserted objects their permanent IDs now, instead of at the next save.
    ///
    /// - Parameter objects: Objects of this context; those that already have permanent IDs are
    ///   skipped.
    /// - Throws: ``PersistentStoreError`` if the store cannot reserve keys.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        assertOnQueue()
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator")
        }
        let temporary = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        let mapping = try coordinator.permanentIDs(for: temporary.map(\.objectID))
        applyIDMapping(mapping)
        if case .context(let parent) = parentStore {
            parent.performAndWait { parent.applyIDMapping(mapping) }
        }
    }

    private func resolvedID(_ id: ManagedObjectID) -> ManagedObjectID {
        registry.resolved(id)
    }
}

// MARK: - Reading from the parent store

extension ManagedObjectContext {
    /// Calls the object's `awakeFromFetch()` with change tracking off.
    func awakeFromFetch(_ object: ManagedObject) {
        let outer = isAwakingFromFetch
        isAwakingFromFetch = true
        object.awakeFromFetch()
        isAwakingFromFetch = outer
    }

    /// Loads a fault's values: from what a fetch cached on it, or from the parent store. A fault
    /// whose row is gone becomes inaccessible: it reads as nil and counts as deleted.
    func fulfillFault(_ object: ManagedObject) {
        switch object.faultSource {
        case .snapshot(let cached) where stalenessInterval < 0:
            object.faultSource = nil
            object.fill(from: cached, in: self)
            awakeFromFetch(object)
            return
        case .batch(let loader, let index):
            object.faultSource = nil
            loader.loadBatch(containing: index, in: self)
            if !object.state.isFault { return }
        case .snapshot, .savedDeletion, nil:
            object.faultSource = nil
        }
        do {
            if let snapshot = try parentSnapshots(for: [object.objectID]).first {
                object.fill(from: snapshot, in: self)
                awakeFromFetch(object)
                return
            }
            Log.context.error("fault for \(object.objectID) could not be fulfilled: the object no longer exists")
        } catch {
            Log.context.error("fault for \(object.objectID) could not be fulfilled: \(error)")
        }
        object.state.isFault = false
        object.state.isInaccessible = true
        object.applyDefaults()
        if !shouldDeleteInaccessibleFaults { unfulfilledFaults.append(object.objectID) }
    }

    /// Loads the committed contents of a to-many relationship.
    func loadRelationship(_ relationship: ToManyRelationship, of object: ManagedObject, at slot: Int) {
        guard let description = object.entity.slots[slot] as? RelationshipDescription else { return }
        do {
            let ids = try parentRelatedObjectIDs(of: [object.objectID], through: description)[object.objectID] ?? []
            let members = ids.map { self.objectOnQueue(with: $0) }
            loadTogether(members)
            relationship.load(members)
        } catch {
            Log.context.error("relationship \(description.qualifiedName) of \(object.objectID) could not be loaded: \(error)")
            relationship.load([])
        }
    }

    /// Makes the faults among a relationship's members load together, a batch at a time, when
    /// the first of a batch fires: reading every member of a to-many then costs one query per
    /// batch instead of one per object (Core Data reads them with the relationship).
    private func loadTogether(_ members: [ManagedObject]) {
        let faults = members.filter { $0.state.isFault && $0.faultSource == nil }
        guard faults.count > 1 else { return }
        let loader = BatchFaultLoader(ids: faults.map(\.objectID), batchSize: Self.relationshipFaultBatchSize)
        for (index, fault) in faults.enumerated() { fault.faultSource = .batch(loader, index: index) }
    }

    /// How many members of a to-many relationship load together.
    static let relationshipFaultBatchSize = 100

    /// Values of objects as the parent store has them; missing objects are left out.
    func parentSnapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        switch parentStore {
        case .coordinator(let coordinator):
            return try readingStore { try coordinator.snapshots(for: ids.filter { !$0.isTemporaryID }) }
        case .context(let parent):
            return try parent.performAndWait { try parent.snapshotsForChild(ids) }
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    /// The destinations of a to-many relationship of several objects, as the parent store has them.
    func parentRelatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]] {
        guard !ids.isEmpty else { return [:] }
        switch parentStore {
        case .coordinator(let coordinator):
            let stored = ids.filter { !$0.isTemporaryID }
            var result = stored.isEmpty ? [:] : try readingStore { try coordinator.relatedObjectIDs(of: stored, through: relationship) }
            for id in ids where id.isTemporaryID { result[id] = [] }
            return result
        case .context(let parent):
            return try parent.performAndWait {
                var result: [ManagedObjectID: [ManagedObjectID]] = [:]
                for id in ids { result[id] = try parent.relatedObjectIDsForChild(of: id, through: relationship) }
                return result
            }
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    /// What a child context sees of these objects: this context's current values (unsaved
    /// changes included) for objects it holds, the parent store's otherwise.
    func snapshotsForChild(_ ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        var result: [RowSnapshot] = []
        var notHeld: [ManagedObjectID] = []
        for id in ids {
            guard let object = registeredObjectIfAlive(for: resolvedID(id)), !object.state.isFault else {
                notHeld.append(id)
                continue
            }
            if !object.isDeleted { result.append(object.currentSnapshot()) }
        }
        return result + (try parentSnapshots(for: notHeld))
    }

    private func relatedObjectIDsForChild(of id: ManagedObjectID, through relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        guard let object = registeredObjectIfAlive(for: resolvedID(id)), !object.state.isFault else {
            return try parentRelatedObjectIDs(of: [id], through: relationship)[id] ?? []
        }
        if object.isDeleted { return [] }
        return object.orderedToManyValue(at: relationship.slot).filter { !$0.isDeleted }.map(\.objectID)
    }
}
