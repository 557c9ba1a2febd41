/// Running batch requests: each is written by the store in one transaction with its persistent
/// history and generation, as a save is, then handed to the contexts that merge automatically
/// (`batchCommitted`). A batch update whose values allow it is one set-based statement of the
/// store (``StoreBatchUpdate``); other updates, and deletes, become one `SaveRequest` of rows;
/// inserts, rows the store binds as they are.
extension PersistentStoreCoordinator {
    /// How many times a batch request re-reads its rows when another process changed some of them
    /// between the read and the write, before giving up.
    private static let batchAttempts = 5

    func execute(_ request: BatchUpdateRequest, info: HistoryTransactionInfo) throws -> BatchUpdateResult {
        let entity = try batchEntity(request.entity, named: request.entityName)
        let values = try request.checkedValues(for: entity)
        let predicate = try request.predicate?.resolved(for: entity)
        let fetch = StoreFetch(entity: entity, includesSubentities: request.includesSubentities, predicate: predicate)
        if !request.writesRowByRow, let update = Self.setBasedUpdate(values, of: fetch) {
            let names = update.assignments.map(\.attribute.name)
            let ids = try writeBatch { store -> ([ManagedObjectID]?, BatchCommit?) in
                guard case .committed(let ids, let priorValues, let outcome) = try store.backend.update(update, info: info) else {
                    return (nil, nil)
                }
                return (ids, outcome.map { outcome in
                    BatchCommit(outcome: outcome) { StoreChange(updated: ids, changedKeys: Set(names), priorValues: priorValues, names: names) }
                })
            }
            if let ids { return BatchUpdateResult(resultType: request.resultType, count: ids.count, ids: ids, setBased: true) }
        }
        let updated = try commitBatch(info: info) { store in
            let rows = try storeRows(for: fetch, in: store, doing: "batch update")
            let updates = try rows.map { row in
                var snapshot = row
                var slots: [Int] = []
                for (name, value) in values {
                    guard let slot = row.objectID.entity.property(named: name)?.slot else { continue }
                    // Computed from the row as read, not as this update has changed it so far.
                    snapshot.values[slot] = try value.value(for: row)
                    slots.append(slot)
                }
                return RowUpdate(snapshot: snapshot, changedSlots: slots.sorted(), expectedVersion: row.version)
            }
            var save = SaveRequest()
            save.updated = updates
            return (save, rows.map(\.objectID))
        }
        return BatchUpdateResult(resultType: request.resultType, updated: updated)
    }

    /// The update as a store may write it with one set-based statement: constants, and integer
    /// arithmetic by an integral operand on an integer attribute into an integer attribute; nil
    /// when a value needs each row in memory (floating point, another type) or sets an attribute
    /// of a uniqueness constraint (whose conflicts the row by row update reports).
    private static func setBasedUpdate(_ values: [(name: String, value: BatchUpdateValue)], of fetch: StoreFetch) -> StoreBatchUpdate? {
        let names = Set(values.map(\.name))
        let constrained = fetch.entities.contains { entity in
            entity.constraints.contains { constraint in constraint.names.contains(where: names.contains) }
        }
        guard !constrained else { return nil }
        var assignments: [StoreBatchUpdate.Assignment] = []
        for (name, value) in values {
            guard let attribute = fetch.entity.property(named: name) as? AttributeDescription else { return nil }
            switch value {
            case .constant(let constant):
                assignments.append(.init(attribute: attribute, value: .constant(constant)))
            case .computed(let expression, let source, let target):
                guard source.attributeType.isInteger, target.attributeType.isInteger else { return nil }
                guard let (op, operand) = expression.operation else {
                    assignments.append(.init(attribute: attribute, value: .integer(source: source, operation: nil)))
                    continue
                }
                // The row by row update computes in integers only for such an operand.
                guard operand.rounded() == operand, abs(operand) < 9.0e15, !(op == .divide && operand == 0) else { return nil }
                let storeOperator: StoreBatchUpdate.Operator = switch op {
                case .add: .add
                case .subtract: .subtract
                case .multiply: .multiply
                case .divide: .divide
                }
                assignments.append(.init(attribute: attribute, value: .integer(source: source, operation: (storeOperator, Int64(operand)))))
            }
        }
        return StoreBatchUpdate(fetch: fetch, assignments: assignments)
    }

    // MARK: Shared steps

    /// The compiled entity a batch request names.
    func batchEntity(_ entity: EntityDescription?, named name: String?) throws -> EntityDescription {
        if let entity, let compiled = managedObjectModel.compiledEntity(named: entity.entityName), compiled === entity || entity.managedObjectModel === managedObjectModel {
            return compiled
        }
        guard let name, let compiled = managedObjectModel.compiledEntity(named: name) else {
            throw BatchRequestError(BatchRequestError.invalidRequest, "the batch request names no entity of the model (\(name ?? "nil"))")
        }
        return compiled
    }

    /// The rows a fetch selects. What of its predicate the store leaves to memory (SQLite's size
    /// limits: an `IN` list of more values than a statement binds) is evaluated here on the rows'
    /// attributes, and the window applied after it; a part that follows a relationship is refused.
    func storeRows(for fetch: StoreFetch, in store: PersistentStore, doing what: String) throws -> [RowSnapshot] {
        let result = try store.backend.fetch(fetch)
        guard let residual = result.residual else { return result.rows }
        let evaluator = PredicateEvaluator()
        var kept: [RowSnapshot] = []
        for row in result.rows {
            let subject = StoredAttributes(row: row)
            let matches = try evaluator.evaluate(residual, on: subject)
            if let relationship = subject.reachedRelationship {
                throw BatchRequestError(BatchRequestError.invalidRequest,
                                        "\(what) of \(fetch.entity.entityName): the store cannot apply the whole predicate itself, and the part left to memory follows the relationship '\(relationship.name)', which a batch request does not read; split the request, or fetch the objects and change them in a context")
            }
            if matches { kept.append(row) }
        }
        let window = kept.dropFirst(fetch.offset)
        return Array(fetch.limit > 0 ? window.prefix(fetch.limit) : window)
    }

    /// What a batch request the store wrote with its own statements committed: the store's
    /// outcome, and what changed for the contexts that merge automatically (made only if there
    /// are some).
    struct BatchCommit {
        var outcome: SaveOutcome
        var change: () -> StoreChange
    }

    /// Runs a write the store makes with its own statements rather than a `SaveRequest` (a batch
    /// request's fast paths) under the save lock, with the checks and the reports of the commit
    /// that ``save(_:)`` makes, and hands what it changed to the contexts that merge
    /// automatically, as ``commitBatch(info:_:)`` does. Returns what `write` returned.
    func writeBatch<T>(_ write: (PersistentStore) throws -> (T, BatchCommit?)) throws -> T {
        try withSaveLock {
            let store = try writableStore()
            let (value, commit) = try write(store)
            if let commit {
                reportCommit(commit.outcome, of: store)
                batchCommitted(commit.change)
            }
            return value
        }
    }

    /// Builds a save with `build` and writes it under the save lock, building it again if rows
    /// changed between its read and its write (another process wrote them). Returns what `build`
    /// returned with the save that committed.
    func commitBatch<T>(info: HistoryTransactionInfo, _ build: (PersistentStore) throws -> (SaveRequest, T)) throws -> T {
        try withSaveLock {
            let store = try store()
            for _ in 0..<Self.batchAttempts {
                var (save, value) = try build(store)
                if save.isEmpty { return value }
                save.transactionInfo = info
                switch try self.save(save) {
                case .committed(let permanentIDs, let preImages, _, _):
                    batchCommitted(save, permanentIDs: permanentIDs, preImages: preImages)
                    return value
                case .conflicts:
                    continue
                case .constraintConflicts(let conflicts):
                    let names = conflicts.map { "\($0.objectID) would take \($0.values) from \($0.databaseRow.objectID)" }.joined(separator: "; ")
                    throw BatchRequestError(BatchRequestError.invalidRequest,
                                            "the batch request would give rows the values a uniqueness constraint keeps to one row: \(names)")
                }
            }
            throw BatchRequestError(BatchRequestError.invalidRequest,
                                    "the batch request's rows kept changing under it (\(Self.batchAttempts) attempts); nothing was written")
        }
    }
}

/// A fetched row as the predicate evaluator sees it for a batch request: its attributes, and a
/// note of the first relationship the predicate tried to follow (the row has no graph behind it).
private final class StoredAttributes: PredicateSubject {
    let row: RowSnapshot
    private(set) var reachedRelationship: RelationshipDescription?

    init(row: RowSnapshot) {
        self.row = row
    }

    var subjectID: ManagedObjectID? { row.objectID }

    func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
        row.value(at: row.objectID.entity.property(named: attribute.name)?.slot ?? attribute.slot)
    }

    func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? {
        reachedRelationship = reachedRelationship ?? relationship
        return nil
    }

    func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] {
        reachedRelationship = reachedRelationship ?? relationship
        return []
    }

    func rawValue(forKey key: String) -> Any? { nil }
}
