extension ManagedObjectContext {
    /// Merges into this context every transaction its store committed after `token`, and returns
    /// the token to follow from next time; when `token` has expired, falls back to one refresh
    /// instead.
    ///
    /// Each transaction is merged as ``mergeChanges(fromContextDidSave:)`` merges its
    /// ``PersistentHistoryTransaction/objectIDNotification()``: registered objects take the
    /// committed values, and fetched results controllers on this context deliver one batch per
    /// transaction. This is how a context follows writes it was not told about: other
    /// coordinators and other programs on the same store.
    ///
    /// A token the store's history no longer covers (pruned by the retention rule, deleted, or
    /// written while a coordinator had history tracking off; see
    /// ``PersistentHistoryError/expiredToken``) cannot say what changed. Then the context
    /// refreshes every object it holds (keeping its own unsaved changes), each fetched results
    /// controller on it fetches again once and delivers one batch from what it showed to what the
    /// store holds, and the method returns the store's current token, read before the refresh:
    /// following history from it misses nothing, and the next call merges deltas again.
    ///
    /// ```swift
    /// // When the store tells of a commit (PersistentStoreRemoteChange), on the context's queue:
    /// lastToken = try context.mergeHistory(after: lastToken)
    /// ```
    ///
    /// - Parameter token: The last transaction already merged; nil merges every transaction the
    ///   store's history holds.
    /// - Returns: The token of the last transaction merged, the store's current token after a
    ///   fallback, or `token` when nothing was committed since.
    /// - Throws: ``PersistentHistoryError/historyUnavailable`` when the store keeps no history;
    ///   ``PersistentStoreError`` when the context has no store, or the store cannot be read.
    public func mergeHistory(after token: PersistentHistoryToken?) throws -> PersistentHistoryToken? {
        assertOnQueue()
        let transactions: [PersistentHistoryTransaction]
        do {
            let result = try execute(PersistentHistoryChangeRequest.fetchHistory(after: token)) as? PersistentHistoryResult
            transactions = result?.result as? [PersistentHistoryTransaction] ?? []
        } catch let error as PersistentHistoryError where error.code == PersistentHistoryError.expiredToken {
            storeChangesWereMissed()
            return error.currentToken
        }
        for transaction in transactions {
            mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        return transactions.last?.token ?? token
    }

    /// The fallback of ``mergeHistory(after:)``: every registered object refreshed (its own
    /// pending changes reported first, as a merge does), the refresh marked as caused by a merge
    /// so that controllers do not follow it object by object, then one
    /// ``ContextEvent/storeChangesMissed`` that makes each of them fetch again.
    func storeChangesWereMissed() {
        assertOnQueue()
        processPendingChanges()
        for object in registeredObjects { refresh(object, mergeChanges: true) }
        pendingChangesComeFromMerge = true
        processPendingChanges()
        pendingChangesComeFromMerge = false
        deliverToObservers(.storeChangesMissed)
        for child in childContexts where child.automaticallyMergesChangesFromParent {
            child.perform { child.storeChangesWereMissed() }
        }
    }


}
