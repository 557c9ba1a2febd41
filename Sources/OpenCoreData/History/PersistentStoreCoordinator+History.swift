import Foundation

extension PersistentStoreCoordinator {
    /// The token just after the last transaction committed to the store, by any coordinator or
    /// process: Core Data's method. Fetch history after it later to see what came next.
    ///
    /// - Parameter stores: The stores to read; nil for every store of the coordinator.
    /// - Returns: The token, or nil when none of the stores records persistent history.
    /// - Throws: ``PersistentStoreError`` when the store cannot be read (Core Data returns nil).
    public func currentPersistentHistoryToken(fromStores stores: [PersistentStore]?) throws -> PersistentHistoryToken? {
        for store in stores ?? persistentStores where persistentStores.contains(where: { $0 === store }) {
            guard let backend = store.backend as? any PersistentHistoryBackend, backend.historySettings.isRecording else { continue }
            return try backend.currentHistoryToken()
        }
        return nil
    }

    /// Runs a request against the store: Core Data's method. See
    /// ``ManagedObjectContext/execute(_:)``, which returns the same result typed.
    ///
    /// - Throws: As ``ManagedObjectContext/execute(_:)``.
    public func execute(_ request: PersistentStoreRequest, with context: ManagedObjectContext) throws -> Any {
        try result(of: request, info: HistoryTransactionInfo(author: context.transactionAuthor, contextName: context.name))
    }

    /// Records that the reader named `reader` has read the store's history up to `token`: while
    /// the reader stays live (it records a position at least once per
    /// ``PersistentHistoryRetention/readerTimeout``), pruning keeps every transaction after its
    /// token, however old. Name each reader once per program or device, not per launch.
    ///
    /// ```swift
    /// try coordinator.setPersistentHistoryReader("widget", readUpTo: lastToken)
    /// ```
    ///
    /// - Throws: ``PersistentHistoryError/historyUnavailable`` for a store without history;
    ///   ``PersistentHistoryError/expiredToken`` for a token of another store.
    public func setPersistentHistoryReader(_ reader: String, readUpTo token: PersistentHistoryToken) throws {
        let (store, backend) = try historyBackend()
        try checkStore(of: token, store, backend)
        try backend.setHistoryReader(reader, readUpTo: token, now: Date())
    }

    /// Forgets a reader recorded with ``setPersistentHistoryReader(_:readUpTo:)``: it holds no
    /// history any more.
    ///
    /// - Throws: ``PersistentHistoryError/historyUnavailable`` for a store without history.
    public func removePersistentHistoryReader(_ reader: String) throws {
        try historyBackend().backend.removeHistoryReader(reader)
    }

    // MARK: Running requests

    /// Runs a store request; `info` names who writes, for the history of a request that writes.
    func result(of request: PersistentStoreRequest, info: HistoryTransactionInfo = HistoryTransactionInfo()) throws -> PersistentStoreResult {
        switch request {
        case let history as PersistentHistoryChangeRequest:
            return try execute(history)
        case let update as BatchUpdateRequest:
            return try execute(update, info: info)
        case let delete as BatchDeleteRequest:
            return try execute(delete, info: info)
        case let insert as BatchInsertRequest:
            return try execute(insert, info: info)
        default:
            throw PersistentStoreError(PersistentStoreError.unsupportedConfiguration,
                                       "requests of type \(type(of: request)) are not supported")
        }
    }

    private func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        let (store, backend) = try historyBackend(for: request.affectedStores)
        switch request.operation {
        case .fetch(let start):
            let filter = try PersistentHistoryFilter(request.fetchRequest)
            let includingChanges = filter.needsChanges || ![.transactionsOnly, .statusOnly].contains(request.resultType)
            let records = try backend.fetchHistory(from: start, includingChanges: includingChanges)
            let selected = try filter.select(records, storeID: store.identifier)
            return PersistentHistoryResult(resultType: request.resultType,
                                           result: Self.result(of: selected, as: request.resultType, counting: filter.target, storeID: store.identifier))
        case .delete(let cutoff):
            if case .throughToken(let token)? = cutoff { try checkStore(of: token, store, backend) }
            let deleted = try backend.deleteHistory(cutoff ?? .beforeTransaction(Int64.max))
            return PersistentHistoryResult(resultType: request.resultType, result: request.resultType == .statusOnly ? true : deleted)
        }
    }

    private static func result(of records: [HistoryTransactionRecord], as type: PersistentHistoryResultType,
                               counting target: PersistentHistoryFilter.Target, storeID: String) -> Any {
        switch type {
        case .statusOnly:
            return true
        case .count:
            return target == .transactions ? records.count : records.reduce(0) { $0 + $1.changes.count }
        case .objectIDs:
            var seen = Set<ManagedObjectID>()
            return records.flatMap(\.changes).map(\.objectID).filter { seen.insert($0).inserted }
        case .transactionsOnly:
            return records.map { PersistentHistoryTransaction($0, storeID: storeID, changes: nil) }
        case .transactionsAndChanges:
            return records.map { PersistentHistoryTransaction($0, storeID: storeID, changes: $0.changes) }
        case .changesOnly:
            return records.flatMap { record in
                let transaction = PersistentHistoryTransaction(record, storeID: storeID, changes: nil)
                return record.changes.map { change in
                    let object = PersistentHistoryChange(change)
                    object.owner.attach(transaction, strongly: true)
                    return object
                }
            }
        }
    }

    // MARK: The store's history

    /// The store a history request runs against, and its history.
    private func historyBackend(for stores: [PersistentStore]? = nil) throws -> (store: PersistentStore, backend: any PersistentHistoryBackend) {
        let store = try self.store()
        if let stores, !stores.contains(where: { $0 === store }) {
            throw PersistentHistoryError(PersistentHistoryError.invalidRequest, "the request's affected stores do not include \(store)")
        }
        guard let backend = store.backend as? any PersistentHistoryBackend, backend.historySettings.isRecording else {
            throw PersistentHistoryError(PersistentHistoryError.historyUnavailable,
                                         "\(store) keeps no persistent history; set PersistentHistoryTrackingKey to true in its description")
        }
        return (store, backend)
    }

    private func checkStore(of token: PersistentHistoryToken, _ store: PersistentStore, _ backend: any PersistentHistoryBackend) throws {
        try backend.checkStore(of: token, identifier: store.identifier, current: try backend.currentHistoryToken())
    }
}
