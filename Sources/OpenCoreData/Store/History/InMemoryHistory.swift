import Foundation

/// A store's history kept in memory, under the store's own lock: the in-memory store's, and the
/// reference the other stores' SQL is checked against (same numbering, cutoffs, retention).
struct InMemoryHistory: Sendable {
    /// Oldest first; numbers increase but leave gaps where commits were not recorded.
    private(set) var transactions: [HistoryTransactionRecord] = []
    /// Each reader's position (the number of the last transaction it read) and when it said so.
    private(set) var readers: [String: (number: Int64, seen: Date)] = [:]
    private var nextChangeID: Int64 = 1

    /// Records a committed save as transaction `number`. `save` holds permanent IDs only.
    mutating func record(_ save: SaveRequest, preImages: [ManagedObjectID: RowSnapshot], number: Int64, timestamp: Date) {
        let changes = HistoryChanges.records(of: save, preImages: preImages, firstChangeID: nextChangeID)
        nextChangeID += Int64(changes.count)
        transactions.append(HistoryTransactionRecord(
            number: number, timestamp: timestamp, author: save.transactionInfo.author,
            contextName: save.transactionInfo.contextName, bundleID: HistoryProcess.bundleID,
            processID: HistoryProcess.processID, changes: changes))
    }

    /// The transactions from `start`, checked complete up to generation `current` when `start` is
    /// a token.
    func fetch(from start: HistoryStart, includingChanges: Bool, current: PersistentHistoryToken,
               check: (PersistentHistoryToken, Int) throws -> Void) rethrows -> [HistoryTransactionRecord] {
        var selected: [HistoryTransactionRecord]
        switch start {
        case .beginning:
            selected = transactions
        case .after(let token):
            selected = transactions.filter { $0.number > token.transactionNumber }
            try check(token, selected.count)
        case .afterDate(let date):
            selected = transactions.filter { $0.timestamp > date }
        }
        if !includingChanges {
            for index in selected.indices { selected[index].changes = [] }
        }
        return selected
    }

    /// Deletes every transaction numbered below `number`; returns how many went.
    @discardableResult
    mutating func delete(before number: Int64) -> Int {
        let count = transactions.prefix { $0.number < number }.count
        transactions.removeFirst(count)
        return count
    }

    /// The number of the first transaction a cutoff keeps.
    func firstKept(by cutoff: HistoryCutoff) -> Int64 {
        switch cutoff {
        case .throughToken(let token): token.transactionNumber + 1
        case .beforeTransaction(let number): number
        case .beforeDate(let date): transactions.first { $0.timestamp >= date }?.number ?? Int64.max
        }
    }

    /// Applies the retention rule (see ``PersistentHistoryRetention``); returns how many
    /// transactions went.
    mutating func prune(_ settings: PersistentHistorySettings, now: Date) -> Int {
        let bounds = settings.pruneBounds(now: now)
        readers = readers.filter { $0.value.seen >= bounds.readersSeenSince }
        var keepFrom = transactions.first { $0.timestamp >= bounds.windowStart }?.number ?? Int64.max
        if let slowest = readers.values.map(\.number).min() { keepFrom = min(keepFrom, slowest + 1) }
        return delete(before: keepFrom)
    }

    mutating func setReader(_ reader: String, number: Int64, now: Date) {
        readers[reader] = (number, now)
    }

    mutating func removeReader(_ reader: String) {
        readers[reader] = nil
    }
}
