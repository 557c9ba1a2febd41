/// One message a context sends its observers inside the library (fetched results controllers,
/// a save's own bookkeeping), one case per kind, each carrying only what that kind says: objects
/// as well as IDs, the slots that changed and their old values. Every case but the renaming of
/// IDs is also posted as a notification and yielded to ``ManagedObjectContext/changes(of:)`` as
/// ``ContextChanges``.
///
/// Where each comes from: ``ManagedObjectContext/processPendingChanges()`` (objects did change),
/// ``ManagedObjectContext/save()`` (will save, did save), a merge of changes committed elsewhere
/// (did merge; see ``DidMerge`` for the changes it can carry) and the saves that give new objects
/// permanent IDs (object IDs did change), and ``ManagedObjectContext/mergeHistory(after:)`` when
/// the history cannot say what changed (store changes missed).
enum ContextEvent {
    /// Pending changes were processed.
    case objectsDidChange(ObjectsDidChange)
    /// A save is about to write; it says nothing more.
    case willSave
    /// A save of this context finished.
    case didSave(DidSave)
    /// Changes committed elsewhere were merged into this context.
    case didMerge(DidMerge)
    /// Temporary IDs became permanent (a save, or `obtainPermanentIDs`). Observers only: no
    /// notification is posted for this.
    case objectIDsDidChange(IDMapping)
    /// The store changed in ways the context cannot read one by one (its history token
    /// expired): it refreshed every object it holds, and observers that show results fetch again,
    /// once. Observers only: the refresh itself was posted as objects-did-change.
    case storeChangesMissed

    /// The notification the event is posted as; nil for the observers-only renaming of IDs.
    var kind: ContextChanges.Kind? {
        switch self {
        case .objectsDidChange: .objectsDidChange
        case .willSave: .willSave
        case .didSave: .didSave
        case .didMerge: .didMerge
        case .objectIDsDidChange, .storeChangesMissed: nil
        }
    }

    /// The event as the public, `Sendable` change set; nil for the renaming of IDs.
    var changes: ContextChanges? {
        switch self {
        case .objectsDidChange(let change): change.changes
        case .willSave: ContextChanges(kind: .willSave, invalidatedAll: false, changedKeys: [:], ids: [[], [], [], [], []])
        case .didSave(let save): save.changes
        case .didMerge(let merge): merge.changes
        case .objectIDsDidChange, .storeChangesMissed: nil
        }
    }
}

extension ContextEvent {
    /// Pending changes, processed: the objects, with each updated object's changed slots and
    /// their values before the event.
    struct ObjectsDidChange {
        var inserted: Set<ManagedObject> = []
        var updated: Set<ManagedObject> = []
        var deleted: Set<ManagedObject> = []
        var refreshed: Set<ManagedObject> = []
        var invalidated: Set<ManagedObject> = []
        /// Every object became unusable (``ManagedObjectContext/reset()``).
        var invalidatedAll = false
        /// Slots changed in this event, per updated or deleted object.
        var changedSlots: [ObjectIdentifier: Set<Int>] = [:]
        /// Values before this event, per updated, deleted or inserted object.
        var oldValues: [ObjectIdentifier: [Int: Slot]] = [:]
        /// The changes were made by merging changes committed elsewhere, which observers hear
        /// about again, by ID, in the did-merge event that follows.
        var causedByMerge = false

        /// The keys changed for `object` in this event.
        func changedKeys(of object: ManagedObject) -> Set<String> {
            guard let slots = changedSlots[ObjectIdentifier(object)] else { return [] }
            return Set(slots.map { object.entity.slots[$0].name })
        }

        var changes: ContextChanges {
            var keys: [ManagedObjectID: Set<String>] = [:]
            for object in updated.union(refreshed) {
                let objectKeys = changedKeys(of: object)
                if !objectKeys.isEmpty { keys[object.objectID, default: []].formUnion(objectKeys) }
            }
            return ContextChanges(kind: .objectsDidChange, invalidatedAll: invalidatedAll, changedKeys: keys, ids: [
                ContextChanges.ids(of: inserted), ContextChanges.ids(of: updated), ContextChanges.ids(of: deleted),
                ContextChanges.ids(of: refreshed), ContextChanges.ids(of: invalidated),
            ])
        }
    }

    /// A save of this context finished: the objects it wrote, and the save by ID for other
    /// contexts to merge.
    struct DidSave {
        var inserted: Set<ManagedObject>
        var updated: Set<ManagedObject>
        var deleted: Set<ManagedObject>
        /// Values as last saved before this save, per updated object.
        var oldValues: [ObjectIdentifier: [Int: Slot]] = [:]
        /// The save, with snapshots of new values and pre-images, carried by the notification to
        /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)``.
        var saved: SavedChanges

        var changes: ContextChanges {
            ContextChanges(kind: .didSave, invalidatedAll: false, changedKeys: [:], ids: [
                ContextChanges.ids(of: inserted), ContextChanges.ids(of: updated), ContextChanges.ids(of: deleted), [], [],
            ])
        }
    }

    /// Changes committed elsewhere, merged into this context: named by ID, including objects
    /// this context never loaded, with whatever the committer knew of them.
    ///
    /// Every field but the IDs is optional knowledge, so that any commit fits: another
    /// context's save brings rows and pre-images; a commit known only by ID (a remote context
    /// save, and changes read from the store's history: batch requests, other coordinators and
    /// processes) brings IDs and, where it has them, changed keys and rows. A consumer reads what
    /// is missing from the context as it has seen the store
    /// (``ManagedObjectContext/snapshotsAsSeen(for:)``).
    struct DidMerge {
        var inserted: Set<ManagedObjectID> = []
        var updated: Set<ManagedObjectID> = []
        var deleted: Set<ManagedObjectID> = []
        /// The keys that changed, per updated object; an object without an entry may have
        /// changed any key.
        var changedKeys: [ManagedObjectID: Set<String>] = [:]
        /// Objects registered here whose values the merge replaced.
        var refreshed: Set<ManagedObject> = []
        /// Rows of inserted and updated objects as committed, where the change carries them.
        var committedRows: [RowSnapshot] = []
        /// Rows of updated and deleted objects before the change, where it carries them.
        var preImages: [ManagedObjectID: RowSnapshot] = [:]
        /// The store generations around the merged commit, when it was one.
        var storeGenerations: CommitGenerations?

        /// Another context's save, merged; `alsoUpdated` names objects reported as updated
        /// without a row (a remote save's updates of objects not registered here).
        init(merging saved: SavedChanges, alsoUpdated: [ManagedObjectID]) {
            inserted = Set(saved.inserted.map(\.objectID))
            updated = Set(saved.updated.map(\.objectID) + alsoUpdated)
            deleted = Set(saved.deleted)
            changedKeys = saved.changedKeys
            committedRows = saved.inserted + saved.updated
            preImages = saved.preImages
            storeGenerations = saved.storeGenerations
        }

        var changes: ContextChanges {
            ContextChanges(kind: .didMerge, invalidatedAll: false, changedKeys: changedKeys, ids: [
                Array(inserted), Array(updated), Array(deleted), ContextChanges.ids(of: refreshed), [],
            ])
        }
    }
}
