import Foundation

extension FetchPredicate {
    /// The predicate in Core Data's format language, written as Core Data writes it; parsing it
    /// gives an equal predicate.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "ANY players.name BEGINSWITH[cd] 'ro' AND NOT (wins > 3.0)")
    /// predicate.predicateFormat   // ANY players.name BEGINSWITH[cd] "ro" AND (NOT wins > 3)
    /// ```
    ///
    /// As in Core Data, strings are double-quoted, whole numbers print without a fraction
    /// (`10.0` as `10`), booleans as `1` and `0`, dates as `CAST(721692000.000000, "NSDate")`,
    /// keys that are reserved words with a `#` (`#in`), and a compound predicate inside another
    /// (a `NOT` included) in parentheses. Numbers compare by value, so `x == 10.0` and `x == 10`
    /// are equal predicates, as they are in Foundation.
    ///
    /// Where Core Data's text would not parse back, this library writes forms its parser (and
    /// Core Data's) reads: other values as casts (`CAST("1.25", "NSDecimalNumber")`,
    /// `CAST("…", "NSUUID")`, `CAST("…", "NSURL")`, `CAST("<base64>", "NSData")`, `CAST("inf",
    /// "NSNumber")`), doubles with all the digits they need, control characters in strings as
    /// `\uXXXX`, and a key path with a key that is not an identifier (`%K` given `"first name"`)
    /// as `FUNCTION(SELF, "valueForKeyPath:", "first name")`.
    ///
    /// What does not come back equal: object IDs, written `CAST("x-coredata://…",
    /// "NSManagedObjectID")`, which the parser refuses (pass objects as `%@` arguments); an
    /// `and`/`or` of fewer than two subpredicates, written as its only subpredicate,
    /// `TRUEPREDICATE` (empty `and`) or `FALSEPREDICATE` (empty `or`); key paths with empty
    /// components; variables whose names are not identifiers; and a `MATCHES` pattern that is
    /// not a regular expression, which the parser refuses.
    public var predicateFormat: String { PredicatePrinter.predicate(node) }
}

extension FetchExpression.Node {
    /// The expression in Core Data's format language, as ``FetchPredicate/predicateFormat``
    /// writes it.
    package var format: String { PredicatePrinter.expression(self) }
}

/// Writes predicate trees in the format language as Core Data's `predicateFormat` does: a
/// compound inside a compound, `NOT`'s included, is parenthesised, and nothing else is.
enum PredicatePrinter {
    static func predicate(_ node: FetchPredicate.Node) -> String {
        switch collapsed(node) {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand):
            return "NOT " + subpredicate(operand)
        case .and(let operands):
            return operands.map(subpredicate).joined(separator: " AND ")
        case .or(let operands):
            return operands.map(subpredicate).joined(separator: " OR ")
        case .comparison(let comparison):
            return comparisonFormat(comparison)
        }
    }

    /// An operand of `AND`, `OR` or `NOT`: in parentheses when it is itself a compound, which
    /// also keeps the tree's shape when it is parsed back.
    private static func subpredicate(_ node: FetchPredicate.Node) -> String {
        switch collapsed(node) {
        case .and, .or, .not: "(" + predicate(node) + ")"
        case .constant, .comparison: predicate(node)
        }
    }

    /// The node as it prints: an `and`/`or` of one operand prints as that operand, an empty one
    /// as the constant it is equivalent to.
    private static func collapsed(_ node: FetchPredicate.Node) -> FetchPredicate.Node {
        switch node {
        case .and(let operands) where operands.count < 2: operands.first.map(collapsed) ?? .constant(true)
        case .or(let operands) where operands.count < 2: operands.first.map(collapsed) ?? .constant(false)
        default: node
        }
    }

    private static func comparisonFormat(_ comparison: FetchPredicate.Comparison) -> String {
        let modifier = switch comparison.modifier {
        case .direct: ""
        case .any: "ANY "
        case .all: "ALL "
        case .none: "NONE "
        }
        var options = ""
        if comparison.options.contains(.caseInsensitive) { options += "c" }
        if comparison.options.contains(.diacriticInsensitive) { options += "d" }
        if !options.isEmpty { options = "[" + options + "]" }
        return "\(modifier)\(expression(comparison.lhs)) \(operatorFormat(comparison.op))\(options) \(expression(comparison.rhs))"
    }

    private static func operatorFormat(_ op: FetchPredicate.Operator) -> String {
        switch op {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }
}
