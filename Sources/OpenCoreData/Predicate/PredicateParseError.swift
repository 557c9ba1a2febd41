/// A format string that cannot be parsed, with the offset where parsing stopped:
/// `expected ')' at offset 17 in "(wins > 3 AND name == 'x'"`.
public struct PredicateParseError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What was expected or what is wrong.
    public let message: String
    /// The offset in characters (Unicode scalars) from the start of ``format``.
    public let offset: Int
    /// The format string.
    public let format: String

    public var description: String {
        format.isEmpty ? message : "\(message) at offset \(offset) in \"\(format)\""
    }

    /// The format string breaks the grammar.
    public static let syntaxError = CoreDataErrorCode(140201, "syntaxError")
    /// A `%@`, `%K`, `%d`, ... has no argument left to consume.
    public static let missingArgument = CoreDataErrorCode(140202, "missingArgument")
    /// An argument of a type a predicate cannot hold, or of the wrong type for its specifier.
    public static let unsupportedArgument = CoreDataErrorCode(140203, "unsupportedArgument")
    /// Valid Core Data syntax this library does not support (arithmetic, `FUNCTION`, ...).
    public static let unsupportedSyntax = CoreDataErrorCode(140204, "unsupportedSyntax")
    /// A `MATCHES` pattern that is not a valid regular expression.
    public static let invalidRegularExpression = CoreDataErrorCode(140205, "invalidRegularExpression")

    package init(code: CoreDataErrorCode, message: String, offset: Int, format: String) {
        self.code = code
        self.message = message
        self.offset = offset
        self.format = format
    }
}
