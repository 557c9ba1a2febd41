/// A computed column of a dictionary fetch: Core Data's `NSExpressionDescription`. Its
/// ``expression`` is an aggregate function of a key path; its ``name`` is the column's key in
/// each dictionary, and what a ``FetchRequest/havingPredicate`` and sort descriptors call it.
///
/// ```swift
/// let total = ExpressionDescription()
/// total.name = "totalWins"
/// total.expression = FetchExpression(forFunction: "sum:", arguments: [FetchExpression(forKeyPath: "wins")])
/// total.expressionResultType = .integer64AttributeType
///
/// let request = FetchRequest<NSDictionary>(entityName: "Team")
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["qualifyingZone", total]
/// request.propertiesToGroupBy = ["qualifyingZone"]
/// request.havingPredicate = try FetchPredicate(format: "totalWins > 10")
/// let zones = try context.fetch(request)   // [["qualifyingZone": "UEFA", "totalWins": 31], ...]
/// ```
///
/// The functions are `sum:`, `average:`, `min:`, `max:` and `count:`, each of one key path to a
/// stored attribute (or, for `count:`, any stored property) of the fetched entity.
public final class ExpressionDescription: @unchecked Sendable, CustomStringConvertible {
    /// The key of the computed value in each result dictionary.
    public var name: String = ""
    /// The function computed for each group of rows.
    public var expression: FetchExpression?
    /// The type the value is given, as in Core Data; nil gives the function's natural type: the
    /// attribute's type for `sum:`, `min:` and `max:`, a double (or decimal) for `average:`, and
    /// an integer 64 for `count:`.
    public var expressionResultType: AttributeType?

    public init() {}

    public var description: String {
        "\(name) = \(expression?.description ?? "nil")"
    }
}
