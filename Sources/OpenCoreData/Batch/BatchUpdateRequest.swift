/// What a ``BatchUpdateRequest`` returns: Core Data's `NSBatchUpdateRequestResultType`.
public enum BatchUpdateRequestResultType: UInt, Sendable {
    /// `true` once the rows are written.
    case statusOnlyResultType = 0
    /// The IDs of the updated objects, as `[ManagedObjectID]`.
    case updatedObjectIDsResultType = 1
    /// How many objects were updated, as `Int`.
    case updatedObjectsCountResultType = 2
}

/// Sets attributes of every stored object of an entity that matches a predicate, in the store,
/// without loading objects into a context: Core Data's `NSBatchUpdateRequest`.
///
/// The request runs as one write transaction: the matching rows are written, the store's
/// persistent history records one update change per object (naming the properties set), and the
/// store's generation advances, as a save's does. Values are checked against the model before
/// anything is written (a value the attribute's type cannot hold, or no value for a required
/// attribute, throws a ``BatchRequestError`` naming the key and the value, where Core Data writes
/// it). Contexts with ``ManagedObjectContext/automaticallyMergesChangesFromParent`` merge the
/// update, and their fetched results controllers deliver it (Core Data leaves that to the app);
/// other contexts' objects keep the values they had, until merged with
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` as in Core Data.
///
/// ```swift
/// let request = BatchUpdateRequest(entityName: "Team")
/// request.predicate = try FetchPredicate(format: "qualifyingZone == %@", "UEFA")
/// request.propertiesToUpdate = ["imageName": "europe.png"]
/// try context.execute(request)   // viewContext merges it if it merges automatically
/// ```
///
/// On the SQLite store, an update of constants and of integer arithmetic on integer attributes
/// (`wins + 1`) that sets no attribute of a uniqueness constraint is one SQL `UPDATE` of the
/// matching rows (each row's version advanced, a history change recorded per row); other
/// updates read each matching row, compute its values and write it back.
///
/// The store applies the predicate. What of it the SQLite store leaves to memory (beyond
/// SQLite's limits, such as an `IN` list of more than 32,766 values) is evaluated on the rows'
/// attributes; such a part that follows a relationship is refused with
/// ``BatchRequestError/invalidRequest``.
public final class BatchUpdateRequest: PersistentStoreRequest, @unchecked Sendable {
    /// The name of the entity whose objects to update.
    public let entityName: String?
    /// The entity whose objects to update, when given directly.
    public let entity: EntityDescription?
    /// The condition objects meet to be updated; nil for every object of the entity.
    public var predicate: FetchPredicate?
    /// Whether objects of subentities are updated too (true by default, as in Core Data).
    public var includesSubentities = true
    /// The attributes to set, by name, and their new values (`nil` or `NSNull` for no value), or
    /// a ``BatchUpdateExpression`` computing each row's value from its own (`wins + 1`).
    public var propertiesToUpdate: [String: Any]?
    /// What the result holds.
    public var resultType: BatchUpdateRequestResultType = .statusOnlyResultType
    /// Whether the update reads each matching row and writes it back, even where the store could
    /// write it with one statement: the reference the set-based path is tested against.
    var writesRowByRow = false

    /// A request for the objects of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
        self.entity = nil
    }

    /// A request for the objects of `entity`.
    public init(entity: EntityDescription) {
        self.entityName = entity.name
        self.entity = entity
    }
}

/// What a ``BatchUpdateRequest`` returns: Core Data's `NSBatchUpdateResult`.
public final class BatchUpdateResult: PersistentStoreResult, @unchecked Sendable {
    /// The request's result type.
    public let resultType: BatchUpdateRequestResultType
    /// `true`, the count (`Int`) or the object IDs (`[ManagedObjectID]`), by ``resultType``.
    public let result: Any?

    convenience init(resultType: BatchUpdateRequestResultType, updated ids: [ManagedObjectID]) {
        self.init(resultType: resultType, count: ids.count, ids: ids)
    }

    /// Whether the store wrote the update with one set-based statement rather than row by row
    /// (for tests).
    let wasSetBased: Bool

    /// A result of `count` objects updated, whose IDs are `ids` when the result holds them.
    init(resultType: BatchUpdateRequestResultType, count: Int, ids: [ManagedObjectID], setBased: Bool = false) {
        self.resultType = resultType
        wasSetBased = setBased
        switch resultType {
        case .statusOnlyResultType: result = true
        case .updatedObjectIDsResultType: result = ids
        case .updatedObjectsCountResultType: result = count
        }
    }
}

/// One value a batch update writes: the same for every row, or computed from each row.
enum BatchUpdateValue {
    case constant(PropertyValue)
    case computed(BatchUpdateExpression, source: AttributeDescription, target: AttributeDescription)

    /// The value for `row`, checked against the target attribute.
    func value(for row: RowSnapshot) throws -> PropertyValue {
        switch self {
        case .constant(let value):
            return value
        case .computed(let expression, let source, let target):
            let entity = row.objectID.entity
            let slot = entity.property(named: source.name)?.slot ?? source.slot
            let integerTarget = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType].contains(target.attributeType)
            let computed = expression.value(from: row.value(at: slot), sourceType: source.attributeType, integerTarget: integerTarget)
            return try BatchValueCheck.storedValue(computed, forKey: target.name, of: entity,
                                                   where: "batch update of \(row.objectID), '\(target.name)' = \(expression)")
        }
    }
}

extension BatchUpdateRequest {
    /// The values to write, checked against `entity`'s attributes, by attribute name.
    func checkedValues(for entity: EntityDescription) throws -> [(name: String, value: BatchUpdateValue)] {
        guard let properties = propertiesToUpdate, !properties.isEmpty else {
            throw BatchRequestError(BatchRequestError.invalidRequest, "the batch update of \(entity.entityName) has no propertiesToUpdate")
        }
        return try properties.keys.sorted().map { key in
            guard let expression = properties[key] as? BatchUpdateExpression else {
                return (key, .constant(try BatchValueCheck.storedValue(properties[key] ?? nil, forKey: key, of: entity, where: "batch update")))
            }
            // Both ends are checked as a constant's key is; each row's result is checked as it is computed.
            let place = "batch update, '\(key)' = \(expression)"
            _ = try BatchValueCheck.storedValue(nil as Any?, forKey: key, of: entity, where: place, allowingNil: true)
            _ = try BatchValueCheck.storedValue(nil as Any?, forKey: expression.key, of: entity, where: place, allowingNil: true)
            guard let target = entity.property(named: key) as? AttributeDescription,
                  let source = entity.property(named: expression.key) as? AttributeDescription else {
                throw BatchRequestError(BatchRequestError.invalidValue, "\(place): not an attribute of \(entity.entityName)", key: key)
            }
            return (key, .computed(expression, source: source, target: target))
        }
    }
}

/// The checks every batch request makes of a value before it writes anything.
enum BatchValueCheck {
    /// The storage form of `value` for the attribute `key` of `entity`, or an error naming the
    /// key, the value and `place` (which request, which row).
    static func storedValue(_ value: Any?, forKey key: String, of entity: EntityDescription, where place: String,
                            rowIndex: Int? = nil, allowingNil: Bool = false) throws -> PropertyValue {
        guard let attribute = entity.property(named: key) as? AttributeDescription, !attribute.isTransient else {
            let what = entity.property(named: key) == nil ? "has no attribute" : "has no stored attribute (relationships and transient attributes cannot be written by a batch request)"
            throw BatchRequestError(BatchRequestError.invalidValue, "\(place): \(entity.entityName) \(what) named '\(key)'", key: key, rowIndex: rowIndex)
        }
        switch attribute.storageConversion(of: value) {
        case .failure(let refusal):
            throw BatchRequestError(BatchRequestError.invalidValue, "\(place): '\(key)' of \(entity.entityName) cannot hold this value: \(refusal.reason)", key: key, rowIndex: rowIndex)
        case .success(let stored):
            if stored.isNull, !attribute.isOptional, !allowingNil {
                throw BatchRequestError(BatchRequestError.missingMandatoryProperty, "\(place): '\(key)' of \(entity.entityName) is required but the value is nil", key: key, rowIndex: rowIndex)
            }
            return stored
        }
    }
}
