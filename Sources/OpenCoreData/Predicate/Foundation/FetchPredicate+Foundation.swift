public import Foundation

extension FetchPredicate {
    /// Converts a Foundation `#Predicate` over a `ManagedObject` subclass.
    ///
    /// ```swift
    /// request.predicate = try FetchPredicate(#Predicate<Team> { team in
    ///     team.wins > 3 && team.coach?.name == "Tite"
    /// })
    /// ```
    ///
    /// Supported: `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, optional chaining through to-one
    /// relationships, `nil`, constants and captured values, `starts(with:)` and `contains(_:)` on
    /// strings (which, as in Swift, find the empty string in every string, where `BEGINSWITH ""`
    /// matches none), `contains(_:)` on arrays of constants (`IN`) and on to-many relationships,
    /// `contains(where:)` and `allSatisfy(_:)` on to-many relationships, and `count` of to-many
    /// relationships.
    ///
    /// - Throws: ``FetchRequestError/unsupportedExpression`` naming the first construct that has no
    ///   counterpart, such as `StringLocalizedStandardContains`;
    ///   ``FetchRequestError/predicateTooDeep`` for one nested deeper than ``maximumNestingDepth``.
    public init<Root: ManagedObject>(_ predicate: Predicate<Root>) throws {
        var scope = FoundationBridgeScope()
        scope.bindings[predicate.variable.key] = .keyPath(root: .object, components: [])
        guard let expression = predicate.expression as? any FoundationPredicateBridgeable else {
            throw FoundationBridgeScope.unsupported(predicate.expression)
        }
        self.init(node: try expression.bridgedPredicate(&scope))
        try checkDepth()
    }
}

/// Where the variables of a Foundation predicate point in ours.
struct FoundationBridgeScope {
    var bindings: [PredicateExpressions.VariableID: FetchExpression.Node] = [:]
    private var variableCount = 0

    mutating func newVariable() -> String {
        variableCount += 1
        return "v\(variableCount)"
    }

    /// An error naming the first expression inside `expression` that has no counterpart.
    static func unsupported(_ expression: Any) -> FetchRequestError {
        let name = firstUnsupported(expression) ?? String(describing: type(of: expression))
        return FetchRequestError(FetchRequestError.unsupportedExpression,
                                 "the predicate uses \(name), which has no Core Data predicate counterpart")
    }

    private static func firstUnsupported(_ value: Any) -> String? {
        if value is any PredicateExpression, !(value is any FoundationPredicateBridgeable) {
            let name = String(describing: type(of: value))
            return String(name.prefix { $0 != "<" })
        }
        for child in Mirror(reflecting: value).children {
            if let found = firstUnsupported(child.value) { return found }
        }
        return nil
    }
}

/// A Foundation predicate expression with a counterpart in ours.
protocol FoundationPredicateBridgeable {
    /// The expression as one side of a comparison.
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node
    /// The expression as a condition.
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node
}

extension FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        throw FoundationBridgeScope.unsupported(self)
    }

    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        // A Boolean key path or constant used as a condition.
        .comparison(.init(lhs: try bridgedExpression(&scope), op: .equalTo, rhs: .constant(.boolean(true))))
    }
}

private func bridge(_ value: some PredicateExpression, _ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
    guard let bridgeable = value as? any FoundationPredicateBridgeable else { throw FoundationBridgeScope.unsupported(value) }
    return try bridgeable.bridgedExpression(&scope)
}

private func condition(_ value: some PredicateExpression, _ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
    guard let bridgeable = value as? any FoundationPredicateBridgeable else { throw FoundationBridgeScope.unsupported(value) }
    return try bridgeable.bridgedPredicate(&scope)
}

private func compare(_ lhs: some PredicateExpression, _ op: FetchPredicate.Operator, _ rhs: some PredicateExpression,
                     _ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
    .comparison(.init(lhs: try bridge(lhs, &scope), op: op, rhs: try bridge(rhs, &scope)))
}

// MARK: Values and key paths

extension PredicateExpressions.Variable: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        guard let node = scope.bindings[key] else { throw FoundationBridgeScope.unsupported(self) }
        return node
    }
}

extension PredicateExpressions.Value: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        guard let node = FetchExpression.Node.constant(from: value) else {
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "the predicate compares with a \(Output.self), which a Core Data predicate cannot hold")
        }
        return node
    }
}

extension PredicateExpressions.NilLiteral: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node { .constant(.null) }
}

extension PredicateExpressions.KeyPath: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        guard case .keyPath(let root, let components) = try bridge(self.root, &scope) else { throw FoundationBridgeScope.unsupported(self) }
        if let objectClass = Root.Output.self as? ManagedObject.Type {
            let names = KeyPathNames.names(of: keyPath, rootClass: objectClass)
            guard !names.isEmpty else {
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "\(keyPath) is not a @Managed property of \(objectClass), so it cannot be fetched by")
            }
            return .keyPath(root: root, components: components + names)
        }
        if let collection = Root.Output.self as? any ManagedObjectCollection.Type, collection.isCountKeyPath(keyPath) {
            return .keyPath(root: root, components: components + ["@count"])
        }
        throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                "the predicate reads \(keyPath) of a \(Root.Output.self), which has no Core Data counterpart")
    }
}

extension PredicateExpressions.OptionalFlatMap: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        // `a?.b`: the key path through a nil to-one is nil, as optional chaining is.
        scope.bindings[variable.key] = try bridge(wrapped, &scope)
        return try bridge(transform, &scope)
    }
}

extension PredicateExpressions.ForcedUnwrap: FoundationPredicateBridgeable {
    func bridgedExpression(_ scope: inout FoundationBridgeScope) throws -> FetchExpression.Node {
        try bridge(inner, &scope)
    }
}

/// Sets of managed objects, whose `count` becomes `@count`.
protocol ManagedObjectCollection {
    static func isCountKeyPath(_ keyPath: AnyKeyPath) -> Bool
}

extension Set: ManagedObjectCollection where Element: ManagedObject {
    /// Whether `keyPath` counts the set. (The literal `\Set<Element>.count` crashes the Swift 6.3
    /// compiler here, so the key path is recognised by what it returns for sets of 0, 1 and 2
    /// probe objects.)
    static func isCountKeyPath(_ keyPath: AnyKeyPath) -> Bool {
        let probes = (0..<2).compactMap { _ in KeyPathNames.makeProbe(Element.self) as? Element }
        return (0...2).allSatisfy { size in
            (Set(probes.prefix(size))[keyPath: keyPath] as? Int) == size
        }
    }
}

// MARK: Conditions

extension PredicateExpressions.Equal: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        try compare(lhs, .equalTo, rhs, &scope)
    }
}

extension PredicateExpressions.NotEqual: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        try compare(lhs, .notEqualTo, rhs, &scope)
    }
}

extension PredicateExpressions.Comparison: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        let op: FetchPredicate.Operator = switch self.op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return try compare(lhs, op, rhs, &scope)
    }
}

extension PredicateExpressions.Conjunction: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        .and([try condition(lhs, &scope), try condition(rhs, &scope)])
    }
}

extension PredicateExpressions.Disjunction: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        .or([try condition(lhs, &scope), try condition(rhs, &scope)])
    }
}

extension PredicateExpressions.Negation: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        .not(try condition(wrapped, &scope))
    }
}

extension PredicateExpressions.SequenceStartsWith: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        try substringTest(base, .beginsWith, prefix, &scope)
    }
}

extension PredicateExpressions.CollectionContainsCollection: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        try substringTest(base, .contains, other, &scope)
    }
}

/// `starts(with:)` and `contains(_:)` of strings. Swift finds the empty string in every string,
/// where `BEGINSWITH ""` and `CONTAINS ""` match none (as in Foundation), so an empty part is
/// tested apart: the translation keeps the Swift closure's answer.
private func substringTest(_ base: some PredicateExpression, _ op: FetchPredicate.Operator, _ part: some PredicateExpression,
                           _ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
    let string = try bridge(base, &scope)
    let substring = try bridge(part, &scope)
    let test = FetchPredicate.Node.comparison(.init(lhs: string, op: op, rhs: substring))
    let present = FetchPredicate.Node.comparison(.init(lhs: string, op: .notEqualTo, rhs: .constant(.null)))
    switch substring {
    case .constant(.string(let text)):
        return text.isEmpty ? present : test
    case .constant:
        return test
    default:
        let empty = FetchPredicate.Node.comparison(.init(lhs: substring, op: .equalTo, rhs: .constant(.string(""))))
        return .or([test, .and([empty, present])])
    }
}

extension PredicateExpressions.SequenceContains: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        // `[a, b].contains(x)` is `x IN {a, b}`; `team.players.contains(p)` is `p IN players`.
        try compare(element, .in, sequence, &scope)
    }
}

extension PredicateExpressions.SequenceContainsWhere: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        let (collection, name, test) = try subquery(sequence, variable.key, self.test, &scope)
        return .comparison(.init(lhs: .subqueryCount(collection: collection, variable: name, predicate: test),
                                 op: .greaterThan, rhs: .constant(.integer(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: FoundationPredicateBridgeable {
    func bridgedPredicate(_ scope: inout FoundationBridgeScope) throws -> FetchPredicate.Node {
        let (collection, name, test) = try subquery(sequence, variable.key, self.test, &scope)
        return .comparison(.init(lhs: .subqueryCount(collection: collection, variable: name, predicate: .not(test)),
                                 op: .equalTo, rhs: .constant(.integer(0))))
    }
}

/// `contains(where:)` and `allSatisfy(_:)` become `SUBQUERY`s: the closure's variable is the
/// subquery's element.
private func subquery(_ sequence: some PredicateExpression, _ variable: PredicateExpressions.VariableID,
                      _ test: some PredicateExpression, _ scope: inout FoundationBridgeScope)
    throws -> (FetchExpression.Node, String, FetchPredicate.Node) {
    let collection = try bridge(sequence, &scope)
    let name = scope.newVariable()
    scope.bindings[variable] = .keyPath(root: .variable(name), components: [])
    return (collection, name, try condition(test, &scope))
}
