import Foundation

/// One side of a comparison: a key path, a constant, a variable, `SELF`, or a subquery
/// (Core Data's `NSExpression`).
///
/// ```swift
/// FetchExpression.keyPath("team.qualifyingZone")
/// try FetchExpression.constant(Date())
/// FetchExpression.variable("ZONE")        // bound by withSubstitutionVariables(_:)
/// ```
public struct FetchExpression: Sendable, Hashable, CustomStringConvertible {
    package indirect enum Node: Sendable, Hashable {
        /// A value: `nil`, a number, a string, a date, ... or an object (by ID).
        case constant(PropertyValue)
        /// `{a, b, c}`, or a collection passed as `%@`.
        case list([Node])
        /// A dotted key path from the evaluated object or from a variable. Components may be
        /// collection operators: `players.@count`, `players.@sum.goals`.
        case keyPath(root: KeyPathRoot, components: [String])
        /// `$NAME`: replaced by ``FetchPredicate/withSubstitutionVariables(_:)``, or the element
        /// variable of an enclosing `SUBQUERY`.
        case variable(String)
        /// `SELF`: the evaluated object.
        case evaluatedObject
        /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which
        /// `predicate` holds (usually followed by `.@count`, see `subqueryCount`).
        case subquery(collection: Node, variable: String, predicate: FetchPredicate.Node)
        /// `SUBQUERY(...).@count`
        case subqueryCount(collection: Node, variable: String, predicate: FetchPredicate.Node)
        /// `sum:(wins)`: a function of Core Data's `NSExpression(forFunction:arguments:)`, used by
        /// the ``ExpressionDescription``s of aggregate fetches and by derived attributes.
        case function(name: String, arguments: [Node])
    }

    /// Where a key path starts.
    package enum KeyPathRoot: Sendable, Hashable {
        /// The evaluated object (`name`, or `SELF.name`).
        case object
        /// A variable (`$player.name`).
        case variable(String)
    }

    package let node: Node

    package init(node: Node) {
        self.node = node
    }

    /// A dotted key path from the evaluated object: `"wins"`, `"team.teamName"`, `"players.@count"`.
    public static func keyPath(_ path: String) -> FetchExpression {
        FetchExpression(node: .keyPath(root: .object, components: path.split(separator: ".").map(String.init)))
    }

    /// A constant: `nil`, a number, a string, a `Date`, `Data`, `UUID`, `URL`, `Decimal`, a
    /// managed object or object ID, or an array or set of those (or a dictionary, for its values).
    ///
    /// - Throws: ``PredicateParseError/unsupportedArgument`` for a value of another type.
    public static func constant(_ value: Any?) throws -> FetchExpression {
        guard let node = Node.constant(from: value) else {
            throw PredicateParseError(code: PredicateParseError.unsupportedArgument,
                                      message: "\(type(of: flattenOptional(value) ?? "nil")) values cannot be used in a predicate",
                                      offset: 0, format: "")
        }
        return FetchExpression(node: node)
    }

    /// `$name`, bound later by ``FetchPredicate/withSubstitutionVariables(_:)``.
    public static func variable(_ name: String) -> FetchExpression {
        FetchExpression(node: .variable(name))
    }

    /// `SELF`: the evaluated object itself.
    public static var evaluatedObject: FetchExpression { FetchExpression(node: .evaluatedObject) }

    /// A dotted key path from the evaluated object: Core Data's `NSExpression(forKeyPath:)`.
    public init(forKeyPath keyPath: String) {
        self = .keyPath(keyPath)
    }

    /// `$name`: Core Data's `NSExpression(forVariable:)`.
    public init(forVariable name: String) {
        self = .variable(name)
    }

    /// A function of other expressions: Core Data's `NSExpression(forFunction:arguments:)`.
    /// Aggregate fetches take `sum:`, `average:`, `min:`, `max:` and `count:` of a key path, in
    /// an ``ExpressionDescription``:
    ///
    /// ```swift
    /// let total = ExpressionDescription()
    /// total.name = "totalWins"
    /// total.expression = FetchExpression(forFunction: "sum:", arguments: [FetchExpression(forKeyPath: "wins")])
    /// total.expressionResultType = .integer64AttributeType
    /// ```
    ///
    /// Derived attributes take `now()`, `lowercase:` and `canonical:` (see
    /// ``DerivedAttributeDescription``). Fetches and models check the function's name and
    /// arguments; predicates take no functions.
    public init(forFunction name: String, arguments: [FetchExpression]) {
        self.init(node: .function(name: name, arguments: arguments.map(\.node)))
    }

    public var description: String { node.format }
}

extension FetchExpression.Node {
    /// The expression for a value passed as a `%@` argument or to ``FetchExpression/constant(_:)``,
    /// or nil if the value's type cannot appear in a predicate (or it is a collection nested
    /// deeper than ``FetchPredicate/maximumNestingDepth``).
    package static func constant(from value: Any?, nesting: Int = 0) -> FetchExpression.Node? {
        guard let value = flattenOptional(value), !(value is NSNull) else { return .constant(.null) }
        // An NSNumber first, by what it holds: on Linux it also passes `as Bool` (0 and 1) and
        // `as Double` (every other number, rounding integers beyond 2^53).
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            if let decimal = number as? NSDecimalNumber { return .constant(.decimal(decimal.decimalValue)) }
            return .constant(numberValue(number))
        }
        switch value {
        case let bool as Bool: return .constant(.boolean(bool))
        case let decimal as Decimal: return .constant(.decimal(decimal))
        case let number as NSDecimalNumber: return .constant(.decimal(number.decimalValue))
        case let double as Double: return .constant(.double(double))
        case let float as Float: return .constant(.double(Double(float)))
        case let integer as any BinaryInteger:
            return Int64(exactly: integer).map { .constant(.integer($0)) } ?? .constant(.double(Double(integer)))
        case let string as String: return .constant(.string(string))
        case let substring as Substring: return .constant(.string(String(substring)))
        case let date as Date: return .constant(.date(date))
        case let data as Data: return .constant(.data(data))
        case let uuid as UUID: return .constant(.uuid(uuid))
        case let url as URL: return .constant(.uri(url))
        case let id as ManagedObjectID: return .constant(.object(id))
        case let object as ManagedObject: return .constant(.object(object.objectID))
        case let dictionary as [AnyHashable: Any]:
            // A dictionary stands for its values, as in Core Data's `IN %@`.
            return constant(from: Array(dictionary.values))
        case let sequence as any Sequence:
            guard nesting < FetchPredicate.maximumNestingDepth else { return nil }
            var elements: [FetchExpression.Node] = []
            for element in sequence {
                guard let node = constant(from: element, nesting: nesting + 1) else { return nil }
                elements.append(node)
            }
            return .list(elements)
        default: return nil
        }
    }

    private static func numberValue(_ number: NSNumber) -> PropertyValue {
        let type = String(cString: number.objCType)
        if type == "c" || type == "B" { return .boolean(number.boolValue) }
        if ["f", "d"].contains(type) { return .double(number.doubleValue) }
        if ["Q", "L", "I", "S", "C"].contains(type) {
            return Int64(exactly: number.uint64Value).map { .integer($0) } ?? .double(number.doubleValue)
        }
        return .integer(number.int64Value)
    }
}
