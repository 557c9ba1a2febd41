/// A batch request that cannot run as given: a value an attribute cannot hold, a key the entity
/// does not have, a predicate the store cannot apply, or a delete the model's rules forbid.
/// Nothing was written when it is thrown.
///
/// Core Data writes such values silently and leaves the store inconsistent; here the request is
/// refused before the store is touched, with the row, the key and the value named:
///
/// ```swift
/// do {
///     try context.execute(BatchInsertRequest(entityName: "Team", objects: rows))
/// } catch let error as BatchRequestError {
///     print(error)   // row 3, key "wins": String value "many" is not a valid integer16AttributeType
/// }
/// ```
public struct BatchRequestError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What went wrong, naming the entity, the key and the value.
    public let message: String
    /// The key of the value refused, if one was.
    public let key: String?
    /// The position of the refused row in a ``BatchInsertRequest``'s objects, if one was.
    public let rowIndex: Int?

    public var description: String { message }

    /// A value of the wrong type, a value out of an attribute's range, or a key the entity does
    /// not have.
    public static let invalidValue = CoreDataErrorCode(1550, "invalidValue")
    /// A required attribute left without a value.
    public static let missingMandatoryProperty = CoreDataErrorCode(1570, "missingMandatoryProperty")
    /// A delete that a relationship's deny rule, or a required inverse, forbids.
    public static let relationshipDeniedDelete = CoreDataErrorCode(1600, "relationshipDeniedDelete")
    /// A request this store cannot run as one transaction: a predicate it cannot apply, object
    /// IDs of several entities or of another store, or rows that kept changing under it.
    public static let invalidRequest = CoreDataErrorCode(134060, "batchRequestInvalid")

    init(_ code: CoreDataErrorCode, _ message: String, key: String? = nil, rowIndex: Int? = nil) {
        self.code = code
        self.message = message
        self.key = key
        self.rowIndex = rowIndex
    }
}
