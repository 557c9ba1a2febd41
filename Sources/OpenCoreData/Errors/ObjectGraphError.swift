/// A request about objects that cannot be carried out: an unknown entity, an object that no
/// longer exists, objects from another context, or a save that conflicts with changes made
/// elsewhere.
public struct ObjectGraphError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What went wrong, naming the entity, key or object.
    public let message: String
    /// The conflicts, for ``mergeConflict``.
    public let conflicts: [MergeConflict]
    /// The uniqueness constraint conflicts, for ``constraintConflict`` (Core Data's
    /// `conflictList`).
    public let constraintConflicts: [ConstraintConflict]

    public var description: String {
        let lines = conflicts.map(\.description) + constraintConflicts.map(\.description)
        guard !lines.isEmpty else { return message }
        return message + "\n" + lines.map { "  - \($0)" }.joined(separator: "\n")
    }

    /// No entity of that name in the model.
    public static let unknownEntity = CoreDataErrorCode(140101, "unknownEntity")
    /// No property of that name on the entity.
    public static let unknownKey = CoreDataErrorCode(140102, "unknownKey")
    /// The object's row is gone from the store (deleted elsewhere).
    public static let objectNotFound = CoreDataErrorCode(133000, "objectNotFound")
    /// The object belongs to a different context, or to none.
    public static let wrongContext = CoreDataErrorCode(133010, "wrongContext")
    /// Objects changed in the store since this context read them, and the merge policy is
    /// ``MergePolicy/error``. ``conflicts`` lists them; nothing was saved.
    public static let mergeConflict = CoreDataErrorCode(133020, "mergeConflict")
    /// Objects of a save break a uniqueness constraint and the merge policy is
    /// ``MergePolicy/error`` (Core Data's `NSManagedObjectConstraintMergeError`).
    /// ``constraintConflicts`` lists them with the values they share; nothing was saved, and the
    /// context keeps its changes.
    public static let constraintConflict = CoreDataErrorCode(133021, "constraintConflict")
    /// The entity is abstract and cannot have objects of its own.
    public static let abstractEntity = CoreDataErrorCode(140103, "abstractEntity")
    /// A fetch request whose Swift result type cannot hold what its `resultType` returns
    /// (`FetchRequest<Team>` with `.managedObjectIDResultType`, say).
    public static let resultTypeMismatch = CoreDataErrorCode(140105, "resultTypeMismatch")
    /// A URI or object ID that does not name an object of this coordinator.
    public static let invalidObjectID = CoreDataErrorCode(140104, "invalidObjectID")

    init(_ code: CoreDataErrorCode, _ message: String, conflicts: [MergeConflict] = [],
         constraintConflicts: [ConstraintConflict] = []) {
        self.code = code
        self.message = message
        self.conflicts = conflicts
        self.constraintConflicts = constraintConflicts
    }
}
