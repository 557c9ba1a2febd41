#if Postgres
import Foundation
package import OpenCoreData

/// PostgreSQL's side of the predicate compiler (``SQLPredicateCompiler``), following the table in
/// Docs/PostgresStore.md, "Predicates".
///
/// Parameters are written as a marker that ``PostgresStatement`` numbers (`$1`, `$2`, …) and
/// casts to the type of the value bound to it, so that no statement depends on PostgreSQL
/// inferring a parameter's type; text parameters carry `COLLATE "C"`, as the text columns do, so
/// that text compares by UTF-8 bytes as memory does. Tables are qualified by the store's schema.
///
/// What PostgreSQL would answer differently from memory is left to memory (the method returns
/// nil): `MATCHES` (another regular expression dialect), `[c]`/`[d]` folding (no collation folds
/// as Foundation does), decimals against floating point (PostgreSQL rounds one side), integers
/// against floating point columns, sums and averages (another summation order), the extrema of
/// data and UUIDs (no such aggregates), and case-insensitive and localized sorts, which the
/// store sorts in Swift.
package struct PostgresDialect: SQLDialect {
    /// The PostgreSQL schema the store's tables live in.
    let schemaName: String

    package init(schemaName: String) {
        self.schemaName = schemaName
    }

    /// A character no identifier (letters, digits, underscores) or keyword contains; values
    /// never go into the text.
    package static let marker: Unicode.Scalar = "\u{1}"

    package var parameterMarker: String { String(Self.marker) }

    package func statementText(_ sql: String) -> String {
        SQLParameterNumbering.numbered(sql, marker: Self.marker)
    }

    package func quotedIdentifier(_ name: String) -> String { quoted(name) }

    package func tableReference(_ name: String) -> String { "\(quoted(schemaName)).\(quoted(name))" }

    package func truth(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    package func nullAsFalse(_ condition: String) -> String { "COALESCE(\(condition), FALSE)" }

    /// A condition decided without reading a row.
    func always(_ value: Bool) -> SQLFragment { SQLFragment(truth(value)) }

    package func comparison(_ left: SQLOperand, _ op: FetchPredicate.Operator, _ right: SQLOperand,
                            negated: Bool) -> SQLFragment? {
        guard let sign = Self.sign(of: op) else { return nil }
        // A constant on the left is moved right, so that the rules below see one shape.
        if left.constant != nil, right.constant == nil, let flipped = Self.flipped(op) {
            return comparison(right, flipped, left, negated: negated)
        }
        if let constant = right.constant, constant.isNull {
            switch op {
            case .equalTo: return left.fragment.wrapped { "\($0) IS NULL" }
            case .notEqualTo: return left.fragment.wrapped { "\($0) IS NOT NULL" }
            default: return always(false)  // nil orders with nothing
            }
        }
        if !left.isObject, !right.isObject {
            switch (Self.family(of: left), Self.family(of: right)) {
            case (.integer, .floatingPoint?):
                guard case .double(let double)? = right.constant else { return nil }
                return integerComparison(left, op, double, negated: negated)
            case (.floatingPoint, .integer?):
                // PostgreSQL compares an integer with a double as a double: exact up to 2^53.
                guard let constant = right.constant, Self.isExactAsDouble(constant) else { return nil }
            case let (leftFamily?, rightFamily?) where leftFamily == rightFamily:
                break
            case (.integer?, .decimal?), (.decimal?, .integer?):
                break  // PostgreSQL compares them as numeric, exactly
            default:
                return nil
            }
        }
        let l = left.fragment, r = right.fragment
        let arguments = l.arguments + r.arguments
        if right.constant == nil {
            // Two values that may each be NULL: nil equals nil, as in memory.
            switch op {
            case .equalTo: return SQLFragment("\(l.sql) IS NOT DISTINCT FROM \(r.sql)", arguments)
            case .notEqualTo: return SQLFragment("\(l.sql) IS DISTINCT FROM \(r.sql)", arguments)
            default: break
            }
        } else if op == .notEqualTo {
            // nil differs from any value: true where `<>` is NULL.
            return SQLFragment("\(l.sql) IS DISTINCT FROM \(r.sql)", arguments)
        }
        let test = "\(l.sql) \(sign) \(r.sql)"
        return SQLFragment(negated ? nullAsFalse(test) : test, arguments)
    }

    package func stringMatch(_ value: SQLOperand, _ operation: StringMatching.Operation, _ pattern: SQLOperand,
                             options: FetchPredicate.Options, negated: Bool) -> SQLFragment? {
        guard options.isEmpty, operation != .matches, Self.family(of: value) == .text else { return nil }
        let text: String
        switch pattern.constant {
        case .string(let string)?: text = string
        case .uri(let url)?: text = url.absoluteString
        default: return nil  // a pattern from a key path, or nil: memory decides
        }
        let like: String
        switch operation {
        case .beginsWith, .endsWith, .contains:
            // Memory finds an empty part nowhere (Foundation's rule); `LIKE '%'` would match all.
            guard !text.isEmpty else { return always(false) }
            let escaped = Self.escapedForLike(text)
            like = operation == .beginsWith ? escaped + "%" : operation == .endsWith ? "%" + escaped : "%" + escaped + "%"
        case .like:
            like = Self.likePattern(text)
        case .matches:
            return nil
        }
        let test = "\(value.fragment.sql) LIKE \(parameterMarker) ESCAPE '\\'"
        return SQLFragment(negated ? nullAsFalse(test) : test, value.fragment.arguments + [.string(like)])
    }

    package func folded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment? { nil }

    /// Under `"C"`, `lower` changes ASCII letters only, which is what Foundation's case folding
    /// does to ASCII text; diacritic folding leaves ASCII text as it is.
    package func asciiFolded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment? {
        options.contains(.caseInsensitive) ? value.wrapped { "lower(\($0))" } : value
    }

    /// UTF-8 spends more than one byte only on characters outside ASCII.
    package func holdsNonASCII(_ value: SQLFragment) -> SQLFragment? {
        SQLFragment("octet_length(\(value.sql)) <> char_length(\(value.sql))", value.arguments + value.arguments)
    }

    package func aggregate(_ function: ResolvedKeyPath.AggregateFunction, of column: String, type: AttributeType,
                           source: String) -> String? {
        switch (function, type) {
        case (.sum, _), (.avg, _), (_, .binaryDataAttributeType), (_, .transformableAttributeType), (_, .UUIDAttributeType):
            return nil
        case (.min, _):
            return "(SELECT min(\(column)) \(source))"
        case (.max, _):
            return "(SELECT max(\(column)) \(source))"
        }
    }

    package func orderTerm(_ value: String, type: AttributeType, comparison: FetchSortDescriptor.Comparison,
                           ascending: Bool) -> String? {
        // Text columns sort under "C" (bytes); folded and localized orders are sorted in Swift.
        if type == .stringAttributeType, comparison != .binary { return nil }
        // Memory puts nil first when ascending; PostgreSQL's default is last.
        return ascending ? "\(value) ASC NULLS FIRST" : "\(value) DESC NULLS LAST"
    }
}

// MARK: Rules

extension PostgresDialect {
    /// Kinds of value that PostgreSQL compares with one another as memory does.
    enum Family {
        case integer, floatingPoint, decimal, date, text, bytes, uuid
    }

    static func family(of operand: SQLOperand) -> Family? {
        if let type = operand.type { return family(of: type) }
        switch operand.constant {
        case .integer?, .boolean?, .object?: return .integer
        case .double?: return .floatingPoint
        case .decimal?: return .decimal
        case .date?: return .date
        case .string?, .uri?: return .text
        case .data?: return .bytes
        case .uuid?: return .uuid
        case .null?, nil: return nil
        }
    }

    static func family(of type: AttributeType) -> Family {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: .integer
        case .doubleAttributeType, .floatAttributeType: .floatingPoint
        case .decimalAttributeType: .decimal
        case .dateAttributeType: .date
        case .stringAttributeType, .URIAttributeType: .text
        case .binaryDataAttributeType, .transformableAttributeType: .bytes
        case .UUIDAttributeType: .uuid
        }
    }

    static func sign(of op: FetchPredicate.Operator) -> String? {
        switch op {
        case .equalTo: "="
        case .notEqualTo: "<>"
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        default: nil
        }
    }

    /// The operator that compares the operands the other way round (`a < b` is `b > a`).
    static func flipped(_ op: FetchPredicate.Operator) -> FetchPredicate.Operator? {
        switch op {
        case .equalTo, .notEqualTo: op
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: nil
        }
    }

    /// Whether a constant has an exact double, so that PostgreSQL's conversion of it to
    /// `double precision` changes nothing.
    static func isExactAsDouble(_ value: PropertyValue) -> Bool {
        switch value {
        case .integer(let integer): integer.magnitude <= 1 << 53
        case .boolean: true
        default: false
        }
    }

    /// An integer against a double constant, rewritten as an integer comparison: PostgreSQL
    /// would convert the integer to a double, which is not exact past 2^53 (memory compares
    /// exactly). `i < 2.5` is `i <= 2`, `i == 2.5` is false, `i < 1e30` is true of every value.
    func integerComparison(_ left: SQLOperand, _ op: FetchPredicate.Operator, _ double: Double,
                           negated: Bool) -> SQLFragment? {
        let l = left.fragment
        let everyValue = l.wrapped { "\($0) IS NOT NULL" }
        let bound: Int64
        let rewritten: FetchPredicate.Operator
        if double >= 9_223_372_036_854_775_808.0 || double < -9_223_372_036_854_775_808.0 {
            let above = double > 0
            switch op {
            case .equalTo: return always(false)
            case .notEqualTo: return always(true)
            case .lessThan, .lessThanOrEqualTo: return above ? everyValue : always(false)
            case .greaterThan, .greaterThanOrEqualTo: return above ? always(false) : everyValue
            default: return nil
            }
        } else if double.rounded() == double {
            bound = Int64(double)
            rewritten = op
        } else {
            switch op {
            case .equalTo: return always(false)
            case .notEqualTo: return always(true)
            case .lessThan, .lessThanOrEqualTo: (bound, rewritten) = (Int64(double.rounded(.down)), .lessThanOrEqualTo)
            case .greaterThan, .greaterThanOrEqualTo: (bound, rewritten) = (Int64(double.rounded(.up)), .greaterThanOrEqualTo)
            default: return nil
            }
        }
        let constant = SQLOperand(fragment: SQLFragment(parameterMarker, [.integer(bound)]), constant: .integer(bound))
        return comparison(left, rewritten, constant, negated: negated)
    }

    /// Text matched literally by `LIKE … ESCAPE '\'`.
    static func escapedForLike(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// A predicate's `LIKE` pattern (`*` any run, `?` one character, `\` escaping the next, a
    /// trailing `\` itself) as PostgreSQL's, whose `_` is one code point in a UTF-8 database as
    /// memory's `?` is one Unicode scalar.
    static func likePattern(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                result += escapedForLike(String(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                result += "%"
            } else if scalar == "?" {
                result += "_"
            } else {
                result += escapedForLike(String(scalar))
            }
        }
        if escaped { result += "\\\\" }
        return result
    }
}
#endif
