public import Foundation

/// A type a fetch can return: managed objects, object IDs, dictionaries, or a count
/// (Core Data's `NSFetchRequestResult`).
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}

/// What a fetch returns, with Core Data's `NSFetchRequestResultType` names.
public enum FetchRequestResultType: UInt, Sendable {
    /// Managed objects (the default); `FetchRequest<Team>` or `FetchRequest<ManagedObject>`.
    case managedObjectResultType = 0
    /// Object IDs; `FetchRequest<ManagedObjectID>`.
    case managedObjectIDResultType = 1
    /// One dictionary per row; `FetchRequest<NSDictionary>`.
    case dictionaryResultType = 2
    /// One `NSNumber` holding the count; `FetchRequest<NSNumber>`.
    case countResultType = 4
}

/// A description of objects to fetch: Core Data's `NSFetchRequest`.
///
/// ```swift
/// let request = Team.fetchRequest()
/// request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false)]
/// request.fetchLimit = 10
/// let leaders = try context.fetch(request)
/// ```
///
/// A request is a class, as in Core Data: a fetched results controller keeps a reference to its
/// request. Change a request from one thread at a time.
public final class FetchRequest<ResultType: FetchRequestResult>: @unchecked Sendable, CustomStringConvertible {
    /// The name of the entity to fetch.
    public var entityName: String?
    /// The entity to fetch, when given directly; otherwise resolved from ``entityName``.
    public var entity: EntityDescription?
    /// The condition results meet; nil for every object of the entity.
    public var predicate: FetchPredicate? {
        didSet { predicateRevision &+= 1 }
    }
    /// Counts assignments to ``predicate``: a fetched results controller, which reads the
    /// predicate again for every batch as Core Data does, tells by it that the predicate it
    /// last read still stands without comparing the two.
    private(set) var predicateRevision = 0
    /// The order of the results; ties are broken by object ID, so equal keys keep a stable order.
    public var sortDescriptors: [FetchSortDescriptor]?
    /// The most results to return; 0 for no limit.
    public var fetchLimit: Int = 0
    /// How many results to skip.
    public var fetchOffset: Int = 0
    /// With a batch size, the fetch reads only the results' IDs; the objects it returns are
    /// faults, and reading one loads its batch of this many objects in one query. 0 loads every
    /// object's values with the fetch.
    public var fetchBatchSize: Int = 0
    /// What the fetch returns.
    public var resultType: FetchRequestResultType = .managedObjectResultType
    /// Whether the context's unsaved inserts, changes and deletes are reflected (the default).
    public var includesPendingChanges: Bool = true
    /// Whether objects of subentities are included (the default).
    public var includesSubentities: Bool = true
    /// Whether returned objects are faults, whose values load on first access. Values read by
    /// the fetch are kept, so firing such a fault does not query the store again.
    public var returnsObjectsAsFaults: Bool = true
    /// Whether objects the context already holds take the values this fetch reads. Off (the
    /// default), a fetch leaves the values of objects in memory as they are, even when the store
    /// has newer ones; on, each refetched object is refreshed as
    /// ``ManagedObjectContext/refresh(_:mergeChanges:)`` with `mergeChanges: true` would: its
    /// saved values become the store's, its unsaved changes stay on top, and observers hear of
    /// it as a refresh.
    public var shouldRefreshRefetchedObjects: Bool = false
    /// Relationships (dotted for several hops: `"players.clubs"`) whose destinations are loaded
    /// with the results, one query per relationship instead of one per object.
    public var relationshipKeyPathsForPrefetching: [String]?
    /// For dictionary results: the keys each dictionary holds, as Core Data takes them: names
    /// or key paths (`"name"`, `"team.teamName"`; a to-one relationship gives an object ID), the
    /// ``PropertyDescription``s of attributes and to-one relationships, and
    /// ``ExpressionDescription``s of aggregate functions. Nil for every attribute.
    public var propertiesToFetch: [Any]?
    /// For dictionary results: the keys, as in ``propertiesToFetch``, whose equal values make
    /// one group, and so one dictionary, with the ``ExpressionDescription``s of
    /// ``propertiesToFetch`` computed over the group. Every other key fetched must be among them.
    /// The grouping and the functions run in the store's SQL where it can.
    public var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: the condition a group's dictionary must meet, naming the
    /// grouped keys and the ``ExpressionDescription``s by name (`totalWins > 10`), as SQL's
    /// `HAVING`.
    public var havingPredicate: FetchPredicate?
    /// For dictionary results: whether equal dictionaries are returned once.
    public var returnsDistinctResults: Bool = false

    /// Whether the request groups rows: it names keys to group by or aggregate functions.
    var isGrouped: Bool {
        !(propertiesToGroupBy ?? []).isEmpty || (propertiesToFetch ?? []).contains { $0 is ExpressionDescription }
    }

    /// Creates a request for the entity with this name.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// Creates a request with no entity; set ``entity`` or ``entityName`` before fetching.
    public init() {}

    public var description: String {
        "FetchRequest(\(entityName ?? entity?.name ?? "?"), predicate: \(predicate?.predicateFormat ?? "nil"), sort: \(sortDescriptors?.map(\.description) ?? []), limit: \(fetchLimit), offset: \(fetchOffset))"
    }

    /// The entity the request names, in `model`.
    func resolveEntity(in model: ManagedObjectModel) throws -> EntityDescription {
        if let entity {
            guard entity.managedObjectModel === model else {
                throw ObjectGraphError(ObjectGraphError.unknownEntity, "the request's entity \(entity.entityName) belongs to another model")
            }
            return entity
        }
        guard let entityName else {
            throw ObjectGraphError(ObjectGraphError.unknownEntity, "the fetch request has no entity; set entityName or entity")
        }
        if let entity = model.compiledEntity(named: entityName) { return entity }
        // `Book.fetchRequest()` names the class's default entity name; a model file may give the
        // class's entity another name, and Core Data's `fetchRequest()` means the class's entity.
        if let objectClass = ResultType.self as? ManagedObject.Type, objectClass != ManagedObject.self,
           objectClass.entityName == entityName, let entity = model.entity(for: objectClass) {
            return entity
        }
        throw ObjectGraphError(ObjectGraphError.unknownEntity, "the model has no entity named '\(entityName)'")
    }
}

extension FetchRequestResult where Self: ManagedObject {
    /// A request for objects of this subclass's entity, typed to return the subclass.
    ///
    /// ```swift
    /// let teams: [Team] = try context.fetch(Team.fetchRequest())
    /// ```
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>(entityName: entityName)
    }
}
