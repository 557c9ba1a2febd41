/// A merge's changed rows, worked out once for all the tracking controllers of a context: by
/// entity, with the object each row now has in the context. A controller's batch
/// (``AffectedRowCollector``) finds its rows' objects through a digest of its own, which finds
/// them registered by the router's.
final class MergeDigest {
    let merge: ContextEvent.DidMerge
    private let source: ResultsSource
    /// Every changed ID (deleted, inserted, updated, refreshed), by entity.
    private let idsByEntity: [ObjectIdentifier: [ManagedObjectID]]
    private let committedRows: [ManagedObjectID: RowSnapshot]
    private let refreshedByID: [ManagedObjectID: ManagedObject]
    /// Objects found so far, for the entities asked about; a row without one is gone.
    private var objects: [ManagedObjectID: ManagedObject] = [:]
    private var entitiesFound: Set<ObjectIdentifier> = []

    init(_ merge: ContextEvent.DidMerge, source: ResultsSource) {
        self.merge = merge
        self.source = source
        committedRows = Dictionary(merge.committedRows.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        refreshedByID = Dictionary(merge.refreshed.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        var ids = merge.deleted.union(merge.inserted).union(merge.updated)
        ids.formUnion(refreshedByID.keys)
        idsByEntity = Dictionary(grouping: ids) { ObjectIdentifier($0.entity) }
    }

    var isEmpty: Bool { idsByEntity.isEmpty }

    /// The changed rows among those `coding` encodes, with their keys.
    func rows(for coding: RowKeyCoding) -> [(id: ManagedObjectID, rowKey: Int64)] {
        coding.entities.flatMap { entity in
            (idsByEntity[ObjectIdentifier(entity)] ?? []).compactMap { id in coding.rowKey(for: id).map { (id, $0) } }
        }
    }

    /// The object a changed row now has, one that may enter results (not deleted, of this
    /// context); nil for a row deleted or gone. Finds the objects of the row's whole entity
    /// the first time, reading the rows the merge does not carry in one go.
    func object(for id: ManagedObjectID) throws -> ManagedObject? {
        let entity = ObjectIdentifier(id.entity)
        if entitiesFound.insert(entity).inserted { try findObjects(of: idsByEntity[entity] ?? []) }
        guard let object = objects[id], !object.isDeleted, object.managedObjectContext === source.context else { return nil }
        return object
    }

    private func findObjects(of ids: [ManagedObjectID]) throws {
        var unread: [ManagedObjectID] = []
        for id in ids where !merge.deleted.contains(id) {
            if let registered = source.registeredObjectIfAlive(for: id) {
                objects[id] = registered
            } else if let snapshot = committedRows[id] {
                objects[id] = source.object(for: snapshot)
            } else {
                unread.append(id)
            }
        }
        for snapshot in try source.snapshotsAsSeen(for: unread) where objects[snapshot.objectID] == nil {
            objects[snapshot.objectID] = source.object(for: snapshot)
        }
    }

    /// The merge as it concerns only the rows named: what a controller those rows concern
    /// processes (in any order, repeats allowed).
    func merge(restrictedTo ids: [ManagedObjectID]) -> ContextEvent.DidMerge {
        var subset = merge
        subset.inserted = Set(ids.filter(merge.inserted.contains))
        subset.updated = Set(ids.filter(merge.updated.contains))
        subset.deleted = Set(ids.filter(merge.deleted.contains))
        subset.changedKeys = Dictionary(ids.compactMap { id in merge.changedKeys[id].map { (id, $0) } }, uniquingKeysWith: { first, _ in first })
        subset.refreshed = Set(ids.compactMap { refreshedByID[$0] })
        subset.committedRows = ids.compactMap { committedRows[$0] }
        subset.preImages = Dictionary(ids.compactMap { id in merge.preImages[id].map { (id, $0) } }, uniquingKeysWith: { first, _ in first })
        return subset
    }
}
