/// A batch delete: the rows selected, the rows their cascade rules reach, and the to-one inverses
/// their nullify rules clear, as one save.
extension PersistentStoreCoordinator {
    func execute(_ request: BatchDeleteRequest, info: HistoryTransactionInfo) throws -> BatchDeleteResult {
        let selection = try deleteSelection(of: request)
        let deleted = try commitBatch(info: info) { store in
            let roots = try selection(store)
            let save = try deleteSave(deleting: roots, in: store)
            return (save, save.deleted.map(\.objectID))
        }
        return BatchDeleteResult(resultType: request.resultType, deleted: deleted)
    }

    /// What reads the rows a request selects, checked before the save lock is taken.
    private func deleteSelection(of request: BatchDeleteRequest) throws -> (PersistentStore) throws -> [RowSnapshot] {
        if let ids = request.objectIDs {
            let storeID = try store().identifier
            if let foreign = ids.first(where: { $0.isTemporaryID || $0.storeIdentifier != storeID }) {
                throw BatchRequestError(BatchRequestError.invalidRequest, "batch delete: \(foreign) is not an object of this coordinator's store")
            }
            return { store in try store.backend.snapshots(for: ids) }
        }
        guard let fetchRequest = request.fetchRequest else {
            throw BatchRequestError(BatchRequestError.invalidRequest, "the batch delete has neither a fetch request nor object IDs")
        }
        let entity = try batchEntity(fetchRequest.entity, named: fetchRequest.entityName)
        let fetch = StoreFetch(entity: entity, predicate: try fetchRequest.predicate?.resolved(for: entity),
                               limit: max(0, fetchRequest.fetchLimit), offset: max(0, fetchRequest.fetchOffset))
        return { store in try self.storeRows(for: fetch, in: store, doing: "batch delete") }
    }

    /// The save deleting `roots` and what their delete rules reach.
    private func deleteSave(deleting roots: [RowSnapshot], in store: PersistentStore) throws -> SaveRequest {
        var deleted: [ManagedObjectID: RowSnapshot] = [:]
        var order: [ManagedObjectID] = []
        var denied: [(source: ManagedObjectID, relationship: RelationshipDescription, destinations: [ManagedObjectID])] = []
        var nullified: [(destination: ManagedObjectID, inverse: RelationshipDescription, source: ManagedObjectID)] = []
        var frontier = roots
        while !frontier.isEmpty {
            var reached: [ManagedObjectID] = []
            for row in frontier where deleted[row.objectID] == nil {
                deleted[row.objectID] = row
                order.append(row.objectID)
            }
            for rows in Dictionary(grouping: frontier, by: { ObjectIdentifier($0.objectID.entity) }).values {
                let entity = rows[0].objectID.entity
                for case let relationship as RelationshipDescription in entity.slots {
                    let destinations = try self.destinations(of: rows, through: relationship, in: store)
                    switch relationship.deleteRule {
                    case .cascadeDeleteRule:
                        reached += destinations.values.joined()
                    case .denyDeleteRule:
                        denied += destinations.map { ($0.key, relationship, $0.value) }
                    case .nullifyDeleteRule, .noActionDeleteRule:
                        guard let inverse = relationship.inverseRelationship, !inverse.isToMany else { continue }
                        for (source, targets) in destinations {
                            nullified += targets.map { ($0, inverse, source) }
                        }
                    }
                }
            }
            var seen = Set<ManagedObjectID>()
            let next = reached.filter { deleted[$0] == nil && seen.insert($0).inserted }
            frontier = next.isEmpty ? [] : try store.backend.snapshots(for: next)
        }
        for (source, relationship, destinations) in denied where destinations.contains(where: { deleted[$0] == nil }) {
            throw BatchRequestError(BatchRequestError.relationshipDeniedDelete,
                                    "batch delete: \(source) cannot be deleted: its relationship '\(relationship.name)' is not empty and its delete rule is deny; nothing was deleted",
                                    key: relationship.name)
        }
        var save = SaveRequest()
        save.deleted = order.compactMap { id in deleted[id].map { RowDeletion(objectID: id, expectedVersion: $0.version) } }
        save.updated = try nullifications(nullified.filter { deleted[$0.destination] == nil }, in: store)
        return save
    }

    /// The destinations of `relationship` for each of `rows`, skipping rows with none.
    private func destinations(of rows: [RowSnapshot], through relationship: RelationshipDescription,
                              in store: PersistentStore) throws -> [ManagedObjectID: [ManagedObjectID]] {
        guard relationship.isToMany else {
            return Dictionary(rows.compactMap { row in row.value(at: relationship.slot).objectID.map { (row.objectID, [$0]) } },
                              uniquingKeysWith: +)
        }
        return try store.backend.relatedObjectIDs(of: rows.map(\.objectID), through: relationship).filter { !$0.value.isEmpty }
    }

    /// Updates clearing the to-one inverses that point to deleted rows.
    private func nullifications(_ nullified: [(destination: ManagedObjectID, inverse: RelationshipDescription, source: ManagedObjectID)],
                                in store: PersistentStore) throws -> [RowUpdate] {
        if let required = nullified.first(where: { !$0.inverse.isOptional }) {
            throw BatchRequestError(BatchRequestError.relationshipDeniedDelete,
                                    "batch delete: deleting \(required.source) would leave the required relationship '\(required.inverse.name)' of \(required.destination) without a value; delete or reassign \(required.destination) first; nothing was deleted",
                                    key: required.inverse.name)
        }
        let slotsByRow = Dictionary(grouping: nullified, by: \.destination).mapValues { Set($0.map(\.inverse.slot)) }
        return try store.backend.snapshots(for: Array(slotsByRow.keys)).map { row in
            let slots = slotsByRow[row.objectID, default: []].sorted()
            var snapshot = row
            for slot in slots { snapshot.values[slot] = .null }
            return RowUpdate(snapshot: snapshot, changedSlots: slots, expectedVersion: row.version)
        }
    }
}
