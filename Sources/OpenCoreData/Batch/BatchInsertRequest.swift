public import Foundation

/// What a ``BatchInsertRequest`` returns: Core Data's `NSBatchInsertRequestResultType`.
public enum BatchInsertRequestResultType: UInt, Sendable {
    /// `true` once the rows are written.
    case statusOnly = 0
    /// The IDs of the objects written, one per distinct object, in the order of the rows, as
    /// `[ManagedObjectID]`.
    case objectIDs = 1
    /// How many objects were written (inserted or, under a uniqueness constraint, updated), as
    /// `Int`.
    case count = 2
}

/// Inserts objects into the store from dictionaries of attribute values, without creating
/// objects in a context: Core Data's `NSBatchInsertRequest`.
///
/// The request runs as one write transaction: primary keys are reserved as a save reserves them,
/// the rows are written, the store's persistent history records one insert change per object,
/// and the store's generation advances. Every row is checked before anything is written: a key
/// the entity has no attribute for, a value the attribute's type cannot hold, or a required
/// attribute without a value (and without a default) throws a ``BatchRequestError`` naming the
/// row index and the key (Core Data writes such rows). Attributes a row leaves out take their
/// default values.
///
/// Rows are checked as the handler makes them (no array of them is kept), and the SQLite store
/// binds each one straight into one prepared `INSERT`, without making an object ID or a
/// snapshot per row: 100,000 rows cost about what inserting them with GRDB directly does.
///
/// On an entity with ``EntityDescription/uniquenessConstraints``, a row whose constrained values
/// a stored row (or an earlier row of the request) already holds updates that row with the values
/// it gives, as Core Data's batch insert does: an upsert. The history records it as an update.
///
/// ```swift
/// let rows: [[String: Any]] = [["teamName": "Spain", "qualifyingZone": "UEFA", "wins": 3],
///                              ["teamName": "Chile", "qualifyingZone": "CONMEBOL"]]
/// let request = BatchInsertRequest(entityName: "Team", objects: rows)
/// request.resultType = .objectIDs
/// let ids = (try context.execute(request) as? BatchInsertResult)?.result as? [ManagedObjectID]
/// ```
///
/// Relationships cannot be set by a batch insert, as in Core Data.
public final class BatchInsertRequest: PersistentStoreRequest, @unchecked Sendable {
    /// The name of the entity to insert objects of.
    public let entityName: String?
    /// The entity to insert objects of, when given directly.
    public let entity: EntityDescription?
    /// The rows to insert, each a dictionary of attribute values by name.
    public var objectsToInsert: [[String: Any]]?
    /// Called with an empty dictionary to fill with the next row's values, until it returns
    /// `true` (the dictionary it filled on that call is not inserted), when given instead of
    /// ``objectsToInsert``.
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    /// What the result holds.
    public var resultType: BatchInsertRequestResultType = .statusOnly
    /// Whether the rows are inserted as one save of new objects even where the store could bind
    /// them as they are: the reference the direct path is tested against.
    var insertsThroughSave = false

    /// A request inserting `objects` as objects of the entity named `entityName`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        self.entity = nil
        self.objectsToInsert = objects
    }

    /// A request inserting `objects` as objects of `entity`.
    public init(entity: EntityDescription, objects: [[String: Any]]) {
        self.entityName = entity.name
        self.entity = entity
        self.objectsToInsert = objects
    }

    /// A request inserting the rows `handler` fills, one per call, until it returns `true`.
    ///
    /// ```swift
    /// var next = 0
    /// let request = BatchInsertRequest(entityName: "Team") { row in
    ///     guard next < names.count else { return true }
    ///     row = ["teamName": names[next], "qualifyingZone": "UEFA"]
    ///     next += 1
    ///     return false
    /// }
    /// ```
    public init(entityName: String, dictionaryHandler handler: @escaping (inout [String: Any]) -> Bool) {
        self.entityName = entityName
        self.entity = nil
        self.dictionaryHandler = handler
    }

    /// A request inserting the rows `handler` fills, one per call, into the `NSMutableDictionary`
    /// it is given, until it returns `true`: Core Data's form, so that its handlers port as they
    /// are.
    ///
    /// ```swift
    /// let request = BatchInsertRequest(entityName: "Quake", dictionaryHandler: { (dictionary: NSMutableDictionary) in
    ///     guard index < quakes.count else { return true }
    ///     dictionary.addEntries(from: quakes[index].dictionaryValue)
    ///     index += 1
    ///     return false
    /// })
    /// ```
    ///
    /// Keys that are not strings are ignored, as the entity has no property they could name.
    public convenience init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entityName) { (row: inout [String: Any]) in
            let dictionary = NSMutableDictionary()
            if handler(dictionary) { return true }
            for (key, value) in dictionary {
                if let name = key as? String { row[name] = value }
            }
            return false
        }
    }
}

/// What a ``BatchInsertRequest`` returns: Core Data's `NSBatchInsertResult`.
public final class BatchInsertResult: PersistentStoreResult, @unchecked Sendable {
    /// The request's result type.
    public let resultType: BatchInsertRequestResultType
    /// `true`, the count (`Int`) or the object IDs (`[ManagedObjectID]`), by ``resultType``.
    public let result: Any?

    convenience init(resultType: BatchInsertRequestResultType, written ids: [ManagedObjectID]) {
        self.init(resultType: resultType, count: ids.count) { ids }
    }

    /// A result of `count` objects written, whose IDs `ids` makes only if the result holds them.
    init(resultType: BatchInsertRequestResultType, count: Int, ids: () -> [ManagedObjectID]) {
        self.resultType = resultType
        switch resultType {
        case .statusOnly: result = true
        case .objectIDs: result = ids()
        case .count: result = count
        }
    }
}

extension BatchInsertRequest {
    /// Calls `body` with each dictionary to insert and its position: the given array's, or each
    /// one the handler produces, as it produces it (no array of them is kept).
    func forEachRow(_ body: (Int, [String: Any]) throws -> Void) rethrows {
        if let objectsToInsert {
            for (index, row) in objectsToInsert.enumerated() { try body(index, row) }
            return
        }
        guard let dictionaryHandler else { return }
        var index = 0
        while true {
            var row: [String: Any] = [:]
            if dictionaryHandler(&row) { return }
            try body(index, row)
            index += 1
        }
    }
}
