public import OpenCoreData

extension QuakesProvider {
    /// Deletes quakes in one batch delete on a new background context, and removes them from the
    /// view context at once, before the history merge comes round to the deletion.
    ///
    /// ```swift
    /// try await provider.deleteQuakes(identifiedBy: selection.map(\.objectID))
    /// ```
    ///
    /// - Parameter objectIDs: The quakes to delete; IDs of quakes already deleted are ignored.
    /// - Throws: The batch delete's error when the store cannot be written (nothing is deleted);
    ///   ``QuakeError/batchDeleteError`` when the result holds no IDs.
    public func deleteQuakes(identifiedBy objectIDs: [ManagedObjectID]) async throws {
        guard !objectIDs.isEmpty else { return }
        let viewContext = container.viewContext
        let taskContext = newTaskContext()
        taskContext.name = "deleteContext"
        taskContext.transactionAuthor = "deleteQuakes"
        try await taskContext.perform {
            let batchDeleteRequest = BatchDeleteRequest(objectIDs: objectIDs)
            batchDeleteRequest.resultType = .resultTypeObjectIDs
            let fetchResult = try taskContext.execute(batchDeleteRequest)
            guard let batchDeleteResult = fetchResult as? BatchDeleteResult,
                  let deletedObjectIDs = batchDeleteResult.result as? [ManagedObjectID]
            else {
                throw QuakeError.batchDeleteError
            }
            // The batch delete bypasses the contexts: tell the view context what is gone.
            let changes: [AnyHashable: Any] = [DeletedObjectsKey: deletedObjectIDs]
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [viewContext])
        }
    }
}
