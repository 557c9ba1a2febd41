/// A fetch request or predicate that does not fit the entity it is used with: an unknown key
/// path, a value of the wrong type for its key, a variable left unbound.
public struct FetchRequestError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What is wrong, naming the key path and entity.
    public let message: String
    /// The entity the request or predicate was checked against.
    public let entityName: String?
    /// The key path involved.
    public let keyPath: String?

    public var description: String { message }

    /// A key path names no property of the entity (or of a relationship's destination).
    public static let unknownKeyPath = CoreDataErrorCode(140301, "unknownKeyPath")
    /// A value's type does not fit the key it is compared with, or an operator does not apply
    /// to the key's type.
    public static let typeMismatch = CoreDataErrorCode(140302, "typeMismatch")
    /// A `$VARIABLE` has no value; bind it with ``FetchPredicate/withSubstitutionVariables(_:)``.
    public static let unboundVariable = CoreDataErrorCode(140303, "unboundVariable")
    /// An expression this library cannot evaluate (for example a key path through a to-many
    /// relationship in a sort descriptor).
    public static let unsupportedExpression = CoreDataErrorCode(140304, "unsupportedExpression")
    /// A `MATCHES` pattern backtracked more than ``FetchPredicate/maximumRegularExpressionSteps``
    /// steps on one value, as nested quantifiers like `(a+)+b` do, or exhausted the engine's
    /// backtracking memory on a long value: the fetch stops instead of running for minutes (or
    /// answering wrongly). Rewrite the pattern without nested repetition.
    public static let regularExpressionTooComplex = CoreDataErrorCode(140305, "regularExpressionTooComplex")
    /// A predicate built in code nests deeper than ``FetchPredicate/maximumNestingDepth`` levels.
    public static let predicateTooDeep = CoreDataErrorCode(140306, "predicateTooDeep")

    package init(_ code: CoreDataErrorCode, _ message: String, entityName: String? = nil, keyPath: String? = nil) {
        self.code = code
        self.message = message
        self.entityName = entityName
        self.keyPath = keyPath
    }
}
