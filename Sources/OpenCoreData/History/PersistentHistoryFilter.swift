import Foundation

/// A history request's fetch request, checked and ready to select transactions or changes: its
/// predicate is resolved against the history entity it names and evaluated in memory, on the
/// transactions the store read for the request's range.
struct PersistentHistoryFilter {
    enum Target {
        case transactions
        case changes
    }

    let target: Target
    private let predicate: ResolvedPredicate?
    private let offset: Int
    private let limit: Int

    /// - Throws: ``PersistentHistoryError/invalidRequest`` for a fetch request on another entity;
    ///   ``FetchRequestError`` for a predicate that does not fit the history entity.
    init(_ request: (any UntypedFetchRequest)?) throws {
        guard let request else {
            (target, predicate, offset, limit) = (.transactions, nil, 0, 0)
            return
        }
        let entity = request.entity ?? request.entityName.flatMap { PersistentHistoryModel.model.compiledEntity(named: $0) }
        switch entity {
        case PersistentHistoryModel.transaction: target = .transactions
        case PersistentHistoryModel.change: target = .changes
        default:
            throw PersistentHistoryError(PersistentHistoryError.invalidRequest,
                                         "a history request filters with PersistentHistoryTransaction.fetchRequest or PersistentHistoryChange.fetchRequest, not a request for \(entity?.entityName ?? request.entityName ?? "no entity")")
        }
        predicate = try request.predicate?.resolved(for: target == .transactions ? PersistentHistoryModel.transaction : PersistentHistoryModel.change)
        offset = max(0, request.fetchOffset)
        limit = max(0, request.fetchLimit)
    }

    /// Whether selecting needs the transactions' changes, besides what the result needs.
    var needsChanges: Bool { target == .changes || predicate != nil }

    /// The transactions selected, each with the changes it is returned with.
    ///
    /// - Throws: ``FetchRequestError`` when the predicate cannot be evaluated (a `MATCHES` past
    ///   its step limit).
    func select(_ records: [HistoryTransactionRecord], storeID: String) throws -> [HistoryTransactionRecord] {
        let evaluator = PredicateEvaluator()
        switch target {
        case .transactions:
            let matching = try records.filter { record in
                try predicate.map { try evaluator.evaluate($0, on: HistoryTransactionSubject(record: record, storeID: storeID)) } ?? true
            }
            return Array(window(matching))
        case .changes:
            // The window counts changes: walk them in order, keeping those inside it.
            var skipped = 0, kept = 0
            var result: [HistoryTransactionRecord] = []
            for record in records {
                let subject = HistoryTransactionSubject(record: record, storeID: storeID)
                var selected = record
                selected.changes = []
                for change in record.changes where limit == 0 || kept < limit {
                    guard try predicate.map({ try evaluator.evaluate($0, on: HistoryChangeSubject(record: change, transaction: subject)) }) ?? true else { continue }
                    if skipped < offset {
                        skipped += 1
                        continue
                    }
                    selected.changes.append(change)
                    kept += 1
                }
                if !selected.changes.isEmpty { result.append(selected) }
            }
            return result
        }
    }

    private func window<C: Collection>(_ items: C) -> C.SubSequence {
        let rest = items.dropFirst(offset)
        return limit > 0 ? rest.prefix(limit) : rest[...]
    }
}
