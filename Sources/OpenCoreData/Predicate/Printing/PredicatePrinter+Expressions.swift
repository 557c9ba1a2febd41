import Foundation

// The two sides of a comparison as `predicateFormat` writes them: key paths, variables,
// subqueries and constants, in Core Data's spelling wherever that spelling parses back.

extension PredicatePrinter {
    static func expression(_ node: FetchExpression.Node) -> String {
        switch node {
        case .constant(let value):
            return constant(value)
        case .list(let elements):
            return "{" + elements.map(expression).joined(separator: ", ") + "}"
        case .keyPath(let root, let components):
            return keyPath(root, components)
        case .variable(let name):
            return "$" + name
        case .evaluatedObject:
            return "SELF"
        case .subquery(let collection, let variable, let condition):
            return "SUBQUERY(\(expression(collection)), $\(variable), \(predicate(condition)))"
        case .subqueryCount(let collection, let variable, let condition):
            return "SUBQUERY(\(expression(collection)), $\(variable), \(predicate(condition))).@count"
        case .function(let name, let arguments):
            // Core Data's spelling, `sum:(wins)`.
            return "\(name)(\(arguments.map(expression).joined(separator: ", ")))"
        }
    }

    // MARK: - Key paths

    /// A key path, dotted (`team.name`, `$p.age`), or as the `valueForKeyPath:` function when a
    /// key cannot be written as an identifier (a `%K` argument such as `"first name"`), which
    /// Core Data prints raw, as text that does not parse.
    private static func keyPath(_ root: FetchExpression.KeyPathRoot, _ components: [String]) -> String {
        let rootText = switch root {
        case .object: "SELF"
        case .variable(let name): "$" + name
        }
        guard !components.isEmpty else { return rootText }
        guard components.allSatisfy(isWritableKey) else {
            return "FUNCTION(\(rootText), \"\(valueForKeyPath)\", \(quoted(components.joined(separator: "."))))"
        }
        let path = components.map(key).joined(separator: ".")
        if case .object = root { return path }
        return rootText + "." + path
    }

    /// The selector of the function form of key paths; the parser reads it back.
    static let valueForKeyPath = "valueForKeyPath:"

    /// Whether a key path component can be written as one, `#`-escaped if need be.
    private static func isWritableKey(_ component: String) -> Bool {
        if component.hasPrefix("@") { return PredicateParser.collectionOperators.contains(component) }
        return !component.isEmpty && component.unicodeScalars.allSatisfy(PredicateLexer.isIdentifierContinue)
    }

    /// A key path component, `#`-escaped when it is a reserved word or does not start like an
    /// identifier.
    private static func key(_ component: String) -> String {
        guard let first = component.unicodeScalars.first, !component.hasPrefix("@") else { return component }
        let isPlain = PredicateLexer.isIdentifierStart(first) && PredicateKeyword(word: component) == nil
        return isPlain ? component : "#" + component
    }

    // MARK: - Constants

    static func constant(_ value: PropertyValue) -> String {
        switch value {
        case .null: return "nil"
        case .integer(let integer): return String(integer)
        case .double(let double):
            return double.isFinite ? number(double) : #"CAST("\#(nonFinite(double))", "NSNumber")"#
        case .decimal(let decimal): return #"CAST("\#(decimal)", "NSDecimalNumber")"#
        case .string(let string): return quoted(string)
        // Core Data's booleans are numbers, and print as such.
        case .boolean(let bool): return bool ? "1" : "0"
        case .date(let date): return #"CAST(\#(seconds(date.timeIntervalSinceReferenceDate)), "NSDate")"#
        case .data(let data): return #"CAST("\#(data.base64EncodedString())", "NSData")"#
        case .uuid(let uuid): return #"CAST("\#(uuid.uuidString)", "NSUUID")"#
        case .uri(let url): return #"CAST(\#(quoted(url.absoluteString)), "NSURL")"#
        case .object(let id): return #"CAST(\#(quoted(id.uriRepresentation().absoluteString)), "NSManagedObjectID")"#
        }
    }

    /// A finite double as `NSNumber` describes it: `10` for a whole number, `0.1`, `1e+16`;
    /// always Swift's shortest spelling that reads back as the same double.
    static func number(_ double: Double) -> String {
        let text = double.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A date's seconds as Core Data writes them (`721692000.000000`, six decimals), or in full
    /// when six decimals would not give the same date back.
    private static func seconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return quoted(nonFinite(seconds)) }
        let sixDecimals = String(format: "%.6f", seconds)
        return Double(sixDecimals) == seconds ? sixDecimals : number(seconds)
    }

    private static func nonFinite(_ double: Double) -> String {
        double.isNaN ? "nan" : double < 0 ? "-inf" : "inf"
    }

    /// A double-quoted string literal, with `"` and `\` escaped as Core Data escapes them, and
    /// control characters as `\uXXXX` so that the output stays on one line.
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
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
