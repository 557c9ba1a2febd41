/// A request a store runs directly, without objects: Core Data's `NSPersistentStoreRequest`. Run
/// one with ``ManagedObjectContext/execute(_:)`` or
/// ``PersistentStoreCoordinator/execute(_:with:)``. ``PersistentHistoryChangeRequest`` is one.
open class PersistentStoreRequest: @unchecked Sendable {
    /// The stores the request runs against; nil for every store of the coordinator.
    public var affectedStores: [PersistentStore]?

    public init() {}
}

/// What a ``PersistentStoreRequest`` returns: Core Data's `NSPersistentStoreResult`.
/// ``PersistentHistoryResult`` is one.
open class PersistentStoreResult: @unchecked Sendable {
    public init() {}
}

/// A fetch request of any result type, as requests that take Core Data's
/// `NSFetchRequest<NSFetchRequestResult>` see it: ``FetchRequest`` conforms whatever its result
/// type.
public protocol UntypedFetchRequest: AnyObject, Sendable {
    /// The name of the entity to fetch.
    var entityName: String? { get }
    /// The entity to fetch, when given directly.
    var entity: EntityDescription? { get }
    /// The condition results meet; nil for every one.
    var predicate: FetchPredicate? { get }
    /// The most results to return; 0 for no limit.
    var fetchLimit: Int { get }
    /// How many results to skip.
    var fetchOffset: Int { get }
}

extension FetchRequest: UntypedFetchRequest {}
