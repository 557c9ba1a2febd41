/// What a ``BatchDeleteRequest`` returns: Core Data's `NSBatchDeleteRequestResultType`.
public enum BatchDeleteRequestResultType: UInt, Sendable {
    /// `true` once the rows are deleted.
    case resultTypeStatusOnly = 0
    /// The IDs of the deleted objects, cascaded ones included, as `[ManagedObjectID]`.
    case resultTypeObjectIDs = 1
    /// How many objects were deleted, cascaded ones included, as `Int`.
    case resultTypeCount = 2
}

/// Deletes stored objects without loading them into a context: Core Data's
/// `NSBatchDeleteRequest`, given a fetch request or the objects' IDs.
///
/// The request runs as one write transaction that deletes the rows, applies the model's
/// relationship delete rules in the store, records one delete change per object (with the
/// tombstone of attributes marked ``AttributeDescription/preservesValueInHistoryOnDeletion``) in
/// the persistent history, and advances the store's generation, as a save does. Contexts with
/// ``ManagedObjectContext/automaticallyMergesChangesFromParent`` merge the deletion (Core Data
/// leaves that to the app); merge the returned IDs into others with
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``, as in Core Data.
///
/// Relationships, rule by rule:
/// - **cascade**: the destinations are deleted too, with their own rules, as Core Data's batch
///   delete does;
/// - **nullify** and **no action**: a destination's to-one inverse is set to no value, so that no
///   row points to a deleted one (Core Data nullifies too; for no action it leaves the dangling
///   reference, which this library never writes). A required to-one inverse cannot be set to no
///   value: the request is refused, as Core Data refuses it ("mandatory OTO nullify inverse");
/// - **deny**: a deleted object whose relationship still holds an object that is not deleted too
///   refuses the whole request with ``BatchRequestError/relationshipDeniedDelete`` (Core Data's
///   batch delete does not check deny rules).
///
/// ```swift
/// let old = FetchRequest<Item>(entityName: "Item")
/// old.predicate = try FetchPredicate(format: "done == YES")
/// let request = BatchDeleteRequest(fetchRequest: old)
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as? BatchDeleteResult
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [DeletedObjectsKey: result?.result ?? []], into: [viewContext])
/// ```
public final class BatchDeleteRequest: PersistentStoreRequest, @unchecked Sendable {
    /// The request selecting the objects to delete, when given one; its limit and offset are
    /// honoured. Its predicate is applied as a ``BatchUpdateRequest``'s is.
    public let fetchRequest: (any UntypedFetchRequest)?
    /// The objects to delete, when given by ID.
    public let objectIDs: [ManagedObjectID]?
    /// What the result holds.
    public var resultType: BatchDeleteRequestResultType = .resultTypeStatusOnly

    /// A request deleting the objects `fetchRequest` selects.
    public init(fetchRequest: any UntypedFetchRequest) {
        self.fetchRequest = fetchRequest
        self.objectIDs = nil
    }

    /// A request deleting these objects. IDs of objects that no longer exist are ignored.
    public init(objectIDs: [ManagedObjectID]) {
        self.fetchRequest = nil
        self.objectIDs = objectIDs
    }
}

/// What a ``BatchDeleteRequest`` returns: Core Data's `NSBatchDeleteResult`.
public final class BatchDeleteResult: PersistentStoreResult, @unchecked Sendable {
    /// The request's result type.
    public let resultType: BatchDeleteRequestResultType
    /// `true`, the count (`Int`) or the object IDs (`[ManagedObjectID]`), by ``resultType``.
    public let result: Any?

    init(resultType: BatchDeleteRequestResultType, deleted ids: [ManagedObjectID]) {
        self.resultType = resultType
        switch resultType {
        case .resultTypeStatusOnly: result = true
        case .resultTypeObjectIDs: result = ids
        case .resultTypeCount: result = ids.count
        }
    }
}
