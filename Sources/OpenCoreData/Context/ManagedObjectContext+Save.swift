extension ManagedObjectContext {
    /// Writes the context's changes to its parent: the store, in one transaction (all of it or
    /// none of it), for a root context; the parent context for a child.
    ///
    /// ```swift
    /// let team = Team(context: context)
    /// team.teamName = "Brazil"
    /// try context.save()
    /// ```
    ///
    /// The sequence is Core Data's: pending changes are processed, ``willSaveObjectsNotification``
    /// is posted, each object's ``ManagedObject/willSave()`` runs (again for objects those calls
    /// changed), the objects are validated, the changes are written, each object's
    /// ``ManagedObject/didSave()`` runs, and ``didSaveObjectsNotification`` is posted. A context
    /// without changes returns at once and posts nothing.
    ///
    /// - Throws: ``ValidationError`` listing every object and key that breaks the model's rules
    ///   (or whose `willSave()` keeps changing it); ``ObjectGraphError/mergeConflict`` when rows
    ///   changed in the store since they were read and the ``mergePolicy`` is
    ///   ``MergePolicy/error``; ``ObjectGraphError/constraintConflict`` when objects break a
    ///   uniqueness constraint (see ``EntityDescription/uniquenessConstraints``) and the policy is
    ///   ``MergePolicy/error``; ``PersistentStoreError`` when the store cannot write. In every
    ///   case nothing was written and the context keeps its changes.
    public func save() throws {
        assertOnQueue()
        processPendingChanges()
        try reportUnfulfilledFaults()
        guard hasChanges else { return }
        deliver(.willSave)
        try runWillSaveHooks()
        updateDerivedAttributes()
        try validateForSave()
        switch parentStore {
        case .coordinator(let coordinator):
            try saveToStore(coordinator)
        case .context(let parent):
            try saveToParent(parent)
        case nil:
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
    }

    /// How many times `willSave()` may run on objects that each run changes again.
    static let willSaveRoundLimit = 100

    /// Calls `willSave()` on every object with changes, then on the objects those calls changed
    /// (inserted, updated or deleted, delete rules included), until a round changes nothing.
    private func runWillSaveHooks() throws {
        var changedByHooks: [ManagedObject] = []
        let token = addObserver { event in
            guard case .objectsDidChange(let change) = event else { return }
            changedByHooks += change.inserted
            changedByHooks += change.updated
            changedByHooks += change.deleted
        }
        defer { removeObserver(token) }
        var objects = objectsWithChanges()
        for round in 1... {
            changedByHooks = []
            let previous = deliveringEvent
            deliveringEvent = .willSave
            for object in objects { object.willSave() }
            deliveringEvent = previous
            processPendingChanges()
            // Usually nothing: a save of many objects is not ordered again for nothing.
            if changedByHooks.isEmpty { return }
            let changed = Set(changedByHooks)
            objects = objectsWithChanges().filter { changed.contains($0) }
            if objects.isEmpty { return }
            if round == Self.willSaveRoundLimit {
                throw ValidationError(failures: objects.map { object in
                    ValidationError.Failure(code: ValidationError.invalidValue, objectID: object.objectID,
                                            entityName: object.entity.entityName, key: nil,
                                            message: "willSave() changed the object in each of \(round) rounds; set a value only when it differs")
                })
            }
        }
    }

    /// Inserted, changed and deleted objects, in a stable order.
    func objectsWithChanges() -> [ManagedObject] {
        insertedSet.orderedByID + changedSet.orderedByID.filter { !$0.isDeleted } + deletedSet.orderedByID
    }

    // MARK: Root contexts

    private func saveToStore(_ coordinator: PersistentStoreCoordinator) throws {
        // Conflicts are resolved and the save retried while holding the coordinator's save lock,
        // so another context of this process cannot win the race again; only other processes
        // can, hence the bound on attempts. The save is announced to the other contexts before
        // the lock is released, so that they merge saves in the order they committed.
        let committed = try coordinator.withSaveLock { () throws -> (SavedChanges, IDMapping, [ManagedObject])? in
            var attempt = 0
            while true {
                attempt += 1
                // Objects of this save claiming the same constrained values are found here, in
                // memory; the store finds those that stored rows already hold.
                if let conflicts = constraintConflictsInMemory(), !conflicts.isEmpty {
                    try resolveConstraintConflicts(conflicts, attempt: attempt)
                    continue
                }
                let request = makeSaveRequest()
                if request.isEmpty { return nil }
                switch try coordinator.save(request) {
                case .committed(let permanentIDs, let preImages, let generations, _):
                    bumpVersionsOfSavedObjects()
                    let inserted = insertedSet.orderedByID
                    var saved = collectSavedChanges(inserted: inserted, writtenRows: request.inserted, permanentIDs: permanentIDs)
                    saved.permanentIDs = permanentIDs
                    saved.preImages = preImages
                    saved.storeGenerations = generations
                    coordinator.announce(saved)
                    return (saved, permanentIDs, inserted)
                case .conflicts(let conflicts):
                    try resolveConflicts(conflicts, attempt: attempt)
                case .constraintConflicts(let conflicts):
                    try resolveConstraintConflicts(constraintConflictGroups(conflicts), attempt: attempt)
                }
            }
        }
        guard let (saved, permanentIDs, inserted) = committed else {
            finishSave(collectSavedChanges())
            return
        }
        applyIDMapping(permanentIDs, savedInsertions: inserted)
        finishSave(saved)
    }

    /// The store wrote the rows: inserted objects are at version 1, changed ones one higher.
    private func bumpVersionsOfSavedObjects() {
        for object in insertedSet { object.version = 1 }
        for object in changedSet where !object.isDeleted && !object.changedPersistentSlots.isEmpty { object.version += 1 }
    }

    /// Faults read while ``shouldDeleteInaccessibleFaults`` was false found no row: the save
    /// stops before writing, as Core Data stops where the fault fired.
    private func reportUnfulfilledFaults() throws {
        guard !unfulfilledFaults.isEmpty else { return }
        let ids = unfulfilledFaults
        unfulfilledFaults = []
        throw ObjectGraphError(ObjectGraphError.objectNotFound,
                               "\(ids.count) object\(ids.count == 1 ? " was" : "s were") read after \(ids.count == 1 ? "its row was" : "their rows were") deleted (shouldDeleteInaccessibleFaults is false), so \(ids.count == 1 ? "its values were" : "their values were") not there: \(ids.map(\.description).joined(separator: ", "))")
    }

    func makeSaveRequest() -> SaveRequest {
        var request = SaveRequest()
        request.transactionInfo = HistoryTransactionInfo(author: transactionAuthor, contextName: name)
        let inserted = insertedSet.orderedByID
        let updated = changedSet.orderedByID.filter { !$0.isDeleted && !$0.changedPersistentSlots.isEmpty }
        request.inserted = inserted.map { $0.currentSnapshot() }
        request.updated = updated.map { object in
            RowUpdate(snapshot: object.currentSnapshot(), changedSlots: object.changedPersistentSlots,
                      expectedVersion: object.version)
        }
        request.deleted = deletedSet.orderedByID.map { RowDeletion(objectID: $0.objectID, expectedVersion: $0.version) }
        for object in inserted + updated {
            for change in object.toManyChanges() {
                guard let relationship = object.entity.slots[change.slot] as? RelationshipDescription else { continue }
                if let order = change.order, relationship.isPersistent {
                    request.orderChanges.append(RelationshipOrderChange(relationship: relationship, owner: object.objectID, destinations: order))
                }
                guard case .joinTable(let owner) = relationship.storage, owner === relationship else { continue }
                request.joinChanges += change.added.map {
                    JoinChange(relationship: relationship, source: object.objectID, destination: $0, isInsertion: true)
                }
                request.joinChanges += change.removed.map {
                    JoinChange(relationship: relationship, source: object.objectID, destination: $0, isInsertion: false)
                }
            }
        }
        return request
    }

    // MARK: Child contexts

    private func saveToParent(_ parent: ManagedObjectContext) throws {
        let changes = collectSavedChanges()
        try parent.performAndWait { try parent.applyChildSave(changes) }
        finishSave(changes)
    }

    // MARK: Shared

    /// The save's changes by ID, for merges and for a parent context, with temporary IDs replaced
    /// by `permanentIDs`. `writtenRows` are the `inserted` objects' rows as the store just wrote
    /// them, in the same order: their values are reused rather than read again from 100,000
    /// objects, and their new IDs taken in step with the mapping, without lookups.
    private func collectSavedChanges(inserted: [ManagedObject]? = nil, writtenRows: [RowSnapshot]? = nil,
                                     permanentIDs: IDMapping = IDMapping()) -> SavedChanges {
        var saved = SavedChanges()
        saved.source = ObjectIdentifier(self)
        let inserted = inserted ?? insertedSet.orderedByID
        let updated = changedSet.orderedByID.filter { !$0.isDeleted && $0.hasPropertyChanges }
        var needsLookup = false
        if let writtenRows, writtenRows.count == inserted.count {
            let ids = permanentIDs.replacing(inOrder: writtenRows.map(\.objectID))
            saved.inserted = zip(zip(writtenRows, ids), inserted).map { written, object in
                needsLookup = needsLookup || written.0.referencesTemporaryIDs
                return RowSnapshot(objectID: written.1, values: written.0.values, version: object.version)
            }
        } else {
            saved.inserted = inserted.map { $0.currentSnapshot() }
            needsLookup = true
        }
        saved.updated = updated.map { $0.currentSnapshot() }
        saved.deleted = deletedSet.orderedByID.map(\.objectID)
        for object in updated {
            saved.changedKeys[object.objectID] = Set(object.changedSlots.map { object.entity.slots[$0].name })
        }
        saved.toManyChanges = (inserted + updated).flatMap { $0.toManyChanges() }
        guard !permanentIDs.isEmpty, needsLookup || !saved.toManyChanges.isEmpty || saved.updated.contains(where: \.referencesTemporaryIDs) else {
            return saved
        }
        return saved.replacingIDs(permanentIDs.dictionary())
    }

    /// A deleted object whose row the save removed becomes a fault outside any context, as in
    /// Core Data, where `managedObjectContext == nil` tells a deleted object; reading it gives
    /// defaults. Its values stay aside only for an undo that brings it back.
    private func turnIntoFaultAfterSavedDeletion(_ object: ManagedObject) {
        object.state.isDeleted = false
        object.willTurnIntoFault()
        object.detach()
        object.faultSource = undoManager == nil ? nil : .savedDeletion(values: object.slots)
        object.slots = []
        object.eventValues = [:]
        object.savedValues = [:]
        object.state.isFault = true
        object.didTurnIntoFault()
    }

    /// Makes the saved changes committed, forgets saved deletions, runs didSave hooks, and posts
    /// did-save with `saved`.
    ///
    /// The hooks and the notification's observers see the save: inserted and updated objects
    /// report it through ``ManagedObject/isInserted`` and ``ManagedObject/isUpdated`` (flags apart
    /// from the bookkeeping, so that changes the hooks make count as new updates), deleted ones
    /// stay deleted and in the context until the notification is delivered (so that the hooks
    /// can neither change them nor bring them back); then they turn into faults outside the
    /// context. A pinned query generation moves to the latest state.
    private func finishSave(_ saved: SavedChanges) {
        advanceQueryGeneration()
        var savedInsertions = insertedSet.ordered
        do {
            let inserted = insertedSet.orderedByID
            let changed = changedSet.orderedByID.filter { !$0.isDeleted }
            let updated = changed.filter(\.hasPropertyChanges)
            let deleted = deletedSet.orderedByID
            var save = ContextEvent.DidSave(inserted: insertedSet.members, updated: Set(updated), deleted: deletedSet.members,
                                            saved: saved)
            for object in updated { save.oldValues[ObjectIdentifier(object)] = object.valuesBeforeChanges }
            let event = ContextEvent.didSave(save)
            for object in inserted {
                object.state.isInserted = false
                object.state.isInsertedBySave = true
                object.commitChanges()
            }
            for object in updated {
                object.state.isUpdatedBySave = true
                object.commitChanges()
            }
            for object in deleted {
                unregister(object)
                object.commitChanges()
            }
            insertedSet.removeAll()
            changedSet.removeAll()
            deletedSet.removeAll()
            let previous = deliveringEvent
            deliveringEvent = event
            for object in inserted + changed + deleted { object.didSave() }
            deliveringEvent = previous
            deliver(event)
            for object in inserted { object.state.isInsertedBySave = false }
            for object in updated { object.state.isUpdatedBySave = false }
            for object in deleted { turnIntoFaultAfterSavedDeletion(object) }
        }
        // Once observers have heard of the save (and dropped what they do not keep), the context
        // stops holding the objects it inserted.
        registry.releaseSaved(&savedInsertions)
    }
}
