package import Foundation

/// What a store that keeps persistent history implements, beyond ``PersistentStoreBackend``: the
/// SQLite and in-memory stores here; a server store would implement the same on its tables.
///
/// Recording is part of ``PersistentStoreBackend/save(_:)``: when ``historySettings`` say the
/// store records, a committed save writes its transaction and changes in the same transaction
/// as its rows (both land or neither does), numbered by the store generation it advances, and
/// returns the new transaction's token in its ``SaveOutcome``.
///
/// The rule that makes tokens safe: transaction numbers are store generations, and every commit
/// advances the generation by one. A token `t` is valid while the store holds every transaction
/// numbered after `t` up to the current generation. A transaction pruned, deleted, or never
/// recorded (a commit by a coordinator with history off) leaves a gap, and tokens before the gap
/// are expired: fetching after one throws ``PersistentHistoryError/expiredToken`` rather than
/// returning an incomplete history.
package protocol PersistentHistoryBackend: PersistentStoreBackend {
    /// Whether saves are recorded, and how long history is kept.
    var historySettings: PersistentHistorySettings { get }

    /// The token just after the last committed transaction (generation 0 before any), whether or
    /// not that commit was recorded.
    func currentHistoryToken() throws -> PersistentHistoryToken

    /// The transactions from `start` on, oldest first, with their changes unless
    /// `includingChanges` is false.
    ///
    /// - Throws: ``PersistentHistoryError/expiredToken`` when `start` is a token of another store,
    ///   or the store no longer holds every transaction after it.
    func fetchHistory(from start: HistoryStart, includingChanges: Bool) throws -> [HistoryTransactionRecord]

    /// Deletes the transactions before `cutoff`, with their changes; returns how many
    /// transactions went.
    func deleteHistory(_ cutoff: HistoryCutoff) throws -> Int

    /// Applies the retention rule as of `now` (see ``PersistentHistoryRetention``): deletes the
    /// transactions older than the retention window that every live reader has read, and forgets
    /// readers not seen within the reader timeout. Returns how many transactions went.
    func pruneHistory(now: Date) throws -> Int

    /// Records that the reader named `reader` has read history up to `token`, as of `now`: while
    /// the reader stays live, pruning keeps every transaction after its token.
    func setHistoryReader(_ reader: String, readUpTo token: PersistentHistoryToken, now: Date) throws

    /// Forgets a reader, so that it holds no history any more.
    func removeHistoryReader(_ reader: String) throws
}

extension PersistentHistoryBackend {
    /// Checks that `token` names this store, or throws the expired-token error saying it does not.
    package func checkStore(of token: PersistentHistoryToken, identifier: String, current: PersistentHistoryToken) throws {
        guard token.storeIdentifier == identifier else {
            throw PersistentHistoryError.expired(token, current: current,
                                                 "the token belongs to another store (\(token.storeIdentifier)), not to this one (\(identifier))")
        }
    }

    /// The transactions a history read found from `start`, checked (for a read after a token)
    /// against the store's `current` generation, each with its changes when asked for.
    ///
    /// - Parameters:
    ///   - transactions: The transactions read, oldest first, with the ID of each one's first change.
    ///   - readChanges: Reads the changes from a change ID on, by transaction number.
    package func records(from start: HistoryStart, identifier: String, current: PersistentHistoryToken,
                         transactions: [(record: HistoryTransactionRecord, firstChange: Int64)], includingChanges: Bool,
                         readChanges: (Int64) throws -> [Int64: [HistoryChangeRecord]]) throws -> [HistoryTransactionRecord] {
        if case .after(let token) = start {
            try checkStore(of: token, identifier: identifier, current: current)
            try checkComplete(after: token, held: transactions.count, current: current)
        }
        guard includingChanges, let first = transactions.first?.firstChange else { return transactions.map(\.record) }
        var changes = try readChanges(first)
        return transactions.map { transaction in
            var record = transaction.record
            record.changes = changes.removeValue(forKey: record.number) ?? []
            return record
        }
    }

    /// Checks that the history held after `token` is complete: `held` transactions numbered after
    /// it, up to generation `current`.
    package func checkComplete(after token: PersistentHistoryToken, held: Int, current: PersistentHistoryToken) throws {
        let expected = current.transactionNumber - token.transactionNumber
        guard expected >= 0 else {
            throw PersistentHistoryError.expired(token, current: current,
                                                 "the token is ahead of the store (transaction \(token.transactionNumber), the store is at \(current.transactionNumber)); was the store replaced by an older copy?")
        }
        guard Int64(held) == expected else {
            throw PersistentHistoryError.expired(token, current: current,
                                                 "the store no longer holds every transaction after the token (\(held) of \(expected)): history was pruned or deleted, or written with history tracking off")
        }
    }
}
