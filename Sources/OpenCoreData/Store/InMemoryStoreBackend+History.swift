import Foundation

/// The in-memory store's persistent history: kept with its rows, under the same lock, so a save
/// and its transaction land together. Off unless the store's description turns it on.
extension InMemoryStoreBackend: PersistentHistoryBackend {
    /// Records a committed save (its IDs permanent) as the transaction numbered by the generation
    /// it just reached, after applying the retention rule when a check is due. Nil when the store
    /// records no history.
    func recordHistory(of save: SaveRequest, preImages: [ManagedObjectID: RowSnapshot], in tables: inout Tables) -> PersistentHistoryToken? {
        guard historySettings.isRecording else { return nil }
        let now = Date()
        // Pruned first, so that the new transaction is never pruned by its own save.
        if tables.lastPrune.map({ now.timeIntervalSince($0) >= historySettings.retention.checkInterval }) ?? true {
            tables.lastPrune = now
            _ = tables.history.prune(historySettings, now: now)
        }
        tables.history.record(save, preImages: preImages, number: tables.generation, timestamp: now)
        return token(tables.generation)
    }

    private func token(_ number: Int64) -> PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
    }

    func currentHistoryToken() throws -> PersistentHistoryToken {
        tables.withLock { token($0.generation) }
    }

    func fetchHistory(from start: HistoryStart, includingChanges: Bool) throws -> [HistoryTransactionRecord] {
        try tables.withLock { tables in
            let current = token(tables.generation)
            return try tables.history.fetch(from: start, includingChanges: includingChanges, current: current) { after, held in
                try checkStore(of: after, identifier: identifier, current: current)
                try checkComplete(after: after, held: held, current: current)
            }
        }
    }

    func deleteHistory(_ cutoff: HistoryCutoff) throws -> Int {
        tables.withLock { tables in tables.history.delete(before: tables.history.firstKept(by: cutoff)) }
    }

    func pruneHistory(now: Date) throws -> Int {
        tables.withLock { tables in
            tables.lastPrune = now
            return tables.history.prune(historySettings, now: now)
        }
    }

    func setHistoryReader(_ reader: String, readUpTo token: PersistentHistoryToken, now: Date) throws {
        tables.withLock { $0.history.setReader(reader, number: token.transactionNumber, now: now) }
    }

    func removeHistoryReader(_ reader: String) throws {
        tables.withLock { $0.history.removeReader(reader) }
    }
}
