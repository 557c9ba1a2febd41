/// A batch insert: checked rows, laid out one after the other for the store to bind as they are
/// (``StoreRowBatch``); on an entity with uniqueness constraints, merged where they claim the same
/// constrained values and inserted as one save, with rows whose constrained values the store
/// already holds turned into updates of the stored rows (an upsert).
extension PersistentStoreCoordinator {
    /// A row to insert, and the slots its dictionary gave (the rest hold defaults).
    private struct InsertRow {
        var snapshot: RowSnapshot
        var given: Set<Int>
    }

    /// How many rounds of upserts a batch insert makes before giving up: each round finds the
    /// stored rows that conflict, so more than one is needed only when another process writes.
    private static let insertRounds = 8

    func execute(_ request: BatchInsertRequest, info: HistoryTransactionInfo) throws -> BatchInsertResult {
        let entity = try batchEntity(request.entity, named: request.entityName)
        let constrained = !entity.constraints.isEmpty
        let checker = BatchInsertRowChecker(entity: entity, tracksGivenSlots: constrained || request.insertsThroughSave)
        var batch = StoreRowBatch(entity: entity)
        var given: [Set<Int>] = []
        try request.forEachRow { index, dictionary in
            let slots = try checker.append(dictionary, index: index, to: &batch)
            if checker.tracksGivenSlots { given.append(slots) }
        }
        guard batch.count > 0 else { return BatchInsertResult(resultType: request.resultType, written: []) }
        guard constrained || request.insertsThroughSave else {
            // Nothing to upsert: the store binds the rows as they are.
            let (keys, storeIdentifier) = try writeBatch { store in
                let insertion = try store.backend.insert(batch, info: info)
                let keys = insertion.keys
                let commit = BatchCommit(outcome: insertion.outcome) {
                    StoreChange(inserted: keys.map { ManagedObjectID(entity: entity, storeIdentifier: store.identifier, primaryKey: $0) })
                }
                return ((keys, store.identifier), commit)
            }
            return BatchInsertResult(resultType: request.resultType, count: keys.count) {
                keys.map { ManagedObjectID(entity: entity, storeIdentifier: storeIdentifier, primaryKey: $0) }
            }
        }
        let rows = mergingDuplicates((0..<batch.count).map { index in
            InsertRow(snapshot: RowSnapshot(objectID: .makeTemporary(for: entity), values: Array(batch.row(index)), version: 1),
                      given: given[index])
        }, of: entity)
        let written = try withSaveLock { () throws -> [ManagedObjectID] in
            // Pending insert (temporary ID) → the stored row it updates instead.
            var upserts: [ManagedObjectID: RowSnapshot] = [:]
            for _ in 0..<Self.insertRounds {
                var save = SaveRequest()
                save.transactionInfo = info
                for row in rows {
                    if let stored = upserts[row.snapshot.objectID] {
                        save.updated.append(update(stored, with: row))
                    } else {
                        save.inserted.append(row.snapshot)
                    }
                }
                switch try self.save(save) {
                case .committed(let mapping, let preImages, _, _):
                    batchCommitted(save, permanentIDs: mapping, preImages: preImages)
                    let permanent = mapping.dictionary()
                    return rows.compactMap { row in upserts[row.snapshot.objectID]?.objectID ?? permanent[row.snapshot.objectID] }
                case .conflicts:
                    // Another process changed a row being upserted: find the rows again.
                    upserts = [:]
                case .constraintConflicts(let conflicts):
                    for conflict in conflicts {
                        guard conflict.objectID.isTemporaryID else {
                            throw BatchRequestError(BatchRequestError.invalidRequest,
                                                    "batch insert of \(entity.entityName): a row's values under one uniqueness constraint belong to \(conflict.objectID) and under another to \(conflict.databaseRow.objectID); nothing was written")
                        }
                        if upserts[conflict.objectID] == nil { upserts[conflict.objectID] = conflict.databaseRow }
                    }
                }
            }
            throw BatchRequestError(BatchRequestError.invalidRequest,
                                    "batch insert of \(entity.entityName): the stored rows kept changing under it (\(Self.insertRounds) attempts); nothing was written")
        }
        return BatchInsertResult(resultType: request.resultType, written: written)
    }

    /// The stored row with the values `row` gives.
    private func update(_ stored: RowSnapshot, with row: InsertRow) -> RowUpdate {
        var snapshot = stored
        var slots: [Int] = []
        let source = row.snapshot.objectID.entity
        for slot in row.given.sorted() {
            guard let target = stored.objectID.entity.property(named: source.slots[slot].name)?.slot else { continue }
            snapshot.values[target] = row.snapshot.values[slot]
            slots.append(target)
        }
        return RowUpdate(snapshot: snapshot, changedSlots: slots.sorted(), expectedVersion: stored.version)
    }

    /// Rows that claim the same values under a uniqueness constraint as an earlier row become one
    /// row: the later row's given values overwrite the earlier's, as they would had they been
    /// inserted one after the other.
    private func mergingDuplicates(_ rows: [InsertRow], of entity: EntityDescription) -> [InsertRow] {
        let constraints = entity.constraints
        guard !constraints.isEmpty else { return rows }
        var merged: [InsertRow] = []
        var owners: [UniquenessConstraint: [ConstraintKey: Int]] = [:]
        for row in rows {
            let earlier = constraints.lazy.compactMap { constraint in
                constraint.values(in: row.snapshot).flatMap { owners[constraint]?[ConstraintKey($0)] }
            }.first
            let position: Int
            if let earlier {
                for slot in row.given { merged[earlier].snapshot.values[slot] = row.snapshot.values[slot] }
                merged[earlier].given.formUnion(row.given)
                position = earlier
            } else {
                merged.append(row)
                position = merged.count - 1
            }
            for constraint in constraints {
                if let values = constraint.values(in: merged[position].snapshot) { owners[constraint, default: [:]][ConstraintKey(values)] = position }
            }
        }
        return merged
    }
}
