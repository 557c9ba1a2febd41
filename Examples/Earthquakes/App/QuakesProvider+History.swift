public import OpenCoreData
import Logging

/// A history transaction already merged into the view context.
struct MergedTransaction {
    /// Where the next history fetch starts.
    var token: PersistentHistoryToken
    /// The transaction's number, which grows with each commit: a transaction numbered no higher
    /// was merged already.
    var transactionNumber: Int64
}

extension QuakesProvider {
    private static let logger = Logger(label: "Earthquakes.history")

    /// The token of the last history transaction merged into the view context; nil before the
    /// first merge.
    public var lastToken: PersistentHistoryToken? {
        lastMerged.withLock { $0?.token }
    }

    /// Fetches the history after ``lastToken`` and merges it into the view context, as the
    /// remote-change observer does after each commit; an error is logged, as the observer has no
    /// one to report it to.
    public func fetchPersistentHistory() async {
        do {
            try await fetchPersistentHistoryTransactionsAndChanges()
        } catch {
            Self.logger.debug("fetching the persistent history: \(error)")
        }
    }

    /// Fetches the history after ``lastToken`` on a new background context and merges each
    /// transaction into the view context, in commit order; returns once they are merged.
    ///
    /// - Throws: ``PersistentHistoryError`` when the history after the token is incomplete
    ///   (pruned), or the store's error when it cannot be read.
    public func fetchPersistentHistoryTransactionsAndChanges() async throws {
        let taskContext = newTaskContext()
        taskContext.name = "persistentHistoryContext"
        let lastToken = self.lastToken
        try await taskContext.perform {
            let changeRequest = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let historyResult = try taskContext.execute(changeRequest) as? PersistentHistoryResult
            if let history = historyResult?.result as? [PersistentHistoryTransaction], !history.isEmpty {
                self.mergePersistentHistoryChanges(from: history)
            }
        }
    }

    /// Merges each transaction into the view context, on its queue, and remembers the last.
    /// Two fetches that started from the same token (two commits in quick succession) bring the
    /// same transactions: each is merged once.
    private func mergePersistentHistoryChanges(from history: [PersistentHistoryTransaction]) {
        let viewContext = container.viewContext
        viewContext.performAndWait {
            for transaction in history {
                let merged = lastMerged.withLock { $0?.transactionNumber ?? Int64.min }
                guard transaction.transactionNumber > merged else { continue }
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastMerged.withLock {
                    $0 = MergedTransaction(token: transaction.token, transactionNumber: transaction.transactionNumber)
                }
            }
        }
    }
}
