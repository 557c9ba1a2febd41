import Foundation

extension FetchPredicate {
    /// The predicate in Core Data's format language; parsing it gives an equal predicate.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "ANY players.name BEGINSWITH[cd] 'ro' AND wins > 3")
    /// predicate.predicateFormat   // ANY players.name BEGINSWITH[cd] "ro" AND wins > 3
    /// ```
    ///
    /// Values without a literal syntax are written as casts that ``init(format:_:)`` reads
    /// back: `CAST(721692000.5, "NSDate")`, `CAST("1.25", "NSDecimalNumber")`,
    /// `CAST("…", "NSUUID")`, `CAST("…", "NSURL")` and `CAST("<base64>", "NSData")`. Keys that
    /// are reserved words are escaped (`#in`).
    ///
    /// What does not come back equal: object IDs, written `CAST("x-coredata://…",
    /// "NSManagedObjectID")`, which the parser refuses (pass objects as `%@` arguments);
    /// NaN, which equals nothing; an `and`/`or` of fewer than two subpredicates, written as its
    /// only subpredicate, `TRUEPREDICATE` (empty `and`) or `FALSEPREDICATE` (empty `or`); and key
    /// paths with no components or with components that are not identifiers.
    public var predicateFormat: String { PredicatePrinter.predicate(node) }
}

extension FetchExpression.Node {
    /// The expression in Core Data's format language, as ``FetchPredicate/predicateFormat``
    /// writes it.
    package var format: String { PredicatePrinter.expression(self) }
}

/// Writes predicate trees in the format language, parenthesising only where the parser would
/// otherwise build a different tree.
enum PredicatePrinter {
    static func predicate(_ node: FetchPredicate.Node) -> String {
        switch collapsed(node) {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand):
            switch collapsed(operand) {
            case .constant, .not: return "NOT " + predicate(operand)
            default: return "NOT (" + predicate(operand) + ")"
            }
        case .and(let operands):
            // An AND or OR inside an AND needs parentheses: `a AND b AND c` would parse flat.
            return operands.map { operand in
                switch collapsed(operand) {
                case .and, .or: "(" + predicate(operand) + ")"
                default: predicate(operand)
                }
            }.joined(separator: " AND ")
        case .or(let operands):
            return operands.map { operand in
                if case .or = collapsed(operand) { "(" + predicate(operand) + ")" } else { predicate(operand) }
            }.joined(separator: " OR ")
        case .comparison(let comparison):
            return comparisonFormat(comparison)
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

    // MARK: - Expressions

    static func expression(_ node: FetchExpression.Node) -> String {
        switch node {
        case .constant(let value):
            return constant(value)
        case .list(let elements):
            return "{" + elements.map(expression).joined(separator: ", ") + "}"
        case .keyPath(.object, let components):
            guard let first = components.first else { return "SELF" }
            // `@count` alone is not an expression; `SELF.@count` is.
            let path = components.map(key).joined(separator: ".")
            return first.hasPrefix("@") ? "SELF." + path : path
        case .keyPath(.variable(let name), let components):
            return (["$" + name] + components.map(key)).joined(separator: ".")
        case .variable(let name):
            return "$" + name
        case .evaluatedObject:
            return "SELF"
        case .subquery(let collection, let variable, let condition):
            return "SUBQUERY(\(expression(collection)), $\(variable), \(predicate(condition)))"
        case .subqueryCount(let collection, let variable, let condition):
            return "SUBQUERY(\(expression(collection)), $\(variable), \(predicate(condition))).@count"
        }
    }

    /// A key path component, `#`-escaped when it is a reserved word or does not start like an
    /// identifier.
    private static func key(_ component: String) -> String {
        if component.hasPrefix("@") { return component }
        let scalars = component.unicodeScalars
        guard let first = scalars.first, scalars.allSatisfy(PredicateLexer.isIdentifierContinue) else {
            return component
        }
        let isPlain = PredicateLexer.isIdentifierStart(first) && PredicateKeyword(word: component) == nil
        return isPlain ? component : "#" + component
    }

    static func constant(_ value: PropertyValue) -> String {
        switch value {
        case .null: return "nil"
        case .integer(let integer): return String(integer)
        case .double(let double):
            return double.isFinite ? number(double) : #"CAST("\#(nonFinite(double))", "NSNumber")"#
        case .decimal(let decimal): return #"CAST("\#(decimal)", "NSDecimalNumber")"#
        case .string(let string): return quoted(string)
        case .boolean(let bool): return bool ? "YES" : "NO"
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            return seconds.isFinite ? #"CAST(\#(number(seconds)), "NSDate")"# : #"CAST("\#(nonFinite(seconds))", "NSDate")"#
        case .data(let data): return #"CAST("\#(data.base64EncodedString())", "NSData")"#
        case .uuid(let uuid): return #"CAST("\#(uuid.uuidString)", "NSUUID")"#
        case .uri(let url): return #"CAST(\#(quoted(url.absoluteString)), "NSURL")"#
        case .object(let id): return #"CAST(\#(quoted(id.uriRepresentation().absoluteString)), "NSManagedObjectID")"#
        }
    }

    /// Swift's shortest round-tripping spelling, with a point or exponent so that it reads back
    /// as a double rather than an integer.
    private static func number(_ double: Double) -> String {
        let text = double.description
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    }

    private static func nonFinite(_ double: Double) -> String {
        double.isNaN ? "nan" : double < 0 ? "-inf" : "inf"
    }

    /// A double-quoted string literal; control characters are escaped so the output stays on
    /// one line.
    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
