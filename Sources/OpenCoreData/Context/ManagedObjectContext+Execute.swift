extension ManagedObjectContext {
    /// Runs a request against the context's store, outside the context's objects: Core Data's
    /// `execute(_:)`: a ``PersistentHistoryChangeRequest``, whose result is a
    /// ``PersistentHistoryResult``, or a batch request (``BatchInsertRequest``, ``BatchUpdateRequest``, ``BatchDeleteRequest``), which writes
    /// rows without objects and records the context's ``transactionAuthor`` and ``name`` in the
    /// store's history. Batch requests leave the context's objects as they are.
    ///
    /// ```swift
    /// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
    /// let result = try context.execute(request) as? PersistentHistoryResult
    /// ```
    ///
    /// - Throws: ``PersistentHistoryError`` for a history request the store cannot answer (an
    ///   expired token, a store without history, a fetch request that is not for history);
    ///   ``FetchRequestError`` for a predicate that does not fit;
    ///   ``BatchRequestError`` for a batch request whose values or predicate do not fit;
    ///   ``PersistentStoreError`` when the store cannot be read or written, or the request is of a
    ///   kind this library does not run.
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the context has no persistent store coordinator or parent")
        }
        return try coordinator.result(of: request, info: HistoryTransactionInfo(author: transactionAuthor, contextName: name))
    }
}
