extension FetchPredicate {
    /// A copy with `$VARIABLE`s replaced by values: Core Data's
    /// `withSubstitutionVariables(_:)`, for predicate templates.
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "qualifyingZone == $ZONE AND wins >= $WINS")
    /// let uefa = try template.withSubstitutionVariables(["ZONE": "UEFA", "WINS": 3])
    /// // qualifyingZone == "UEFA" AND wins >= 3
    /// ```
    ///
    /// Values convert as `%@` arguments do (`nil` is `NULL`, arrays and sets are lists,
    /// managed objects are their IDs). Only bare `$NAME` expressions are replaced: a key path
    /// from a variable (`$player.name`) and the element variable of a `SUBQUERY` stay as they
    /// are, and variables missing from `variables` stay too.
    ///
    /// - Throws: ``PredicateParseError/unsupportedArgument`` for a value of a type a predicate
    ///   cannot hold, or a `BETWEEN` bound that is not a pair of values;
    ///   ``PredicateParseError/invalidRegularExpression`` for a `MATCHES` pattern that is not a
    ///   valid regular expression.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws -> FetchPredicate {
        // A predicate a builder refused stays refused (its node is only a placeholder).
        guard !isTooDeep else { return self }
        let substitution = VariableSubstitution(values: variables)
        return FetchPredicate(node: try substitution.predicate(node, bound: []))
    }
}

/// Replaces free variables in a predicate tree.
private struct VariableSubstitution {
    let values: [String: Any?]

    func predicate(_ node: FetchPredicate.Node, bound: Set<String>) throws(PredicateParseError) -> FetchPredicate.Node {
        switch node {
        case .constant: return node
        case .not(let operand): return .not(try predicate(operand, bound: bound))
        case .and(let operands): return .and(try operands.map { operand throws(PredicateParseError) in try predicate(operand, bound: bound) })
        case .or(let operands): return .or(try operands.map { operand throws(PredicateParseError) in try predicate(operand, bound: bound) })
        case .comparison(var comparison):
            let written = comparison.rhs
            comparison.lhs = try expression(comparison.lhs, bound: bound)
            comparison.rhs = try expression(comparison.rhs, bound: bound)
            // Only what substitution brought in: a tree built in code is not re-judged here.
            if comparison.rhs != written { try validate(comparison) }
            return .comparison(comparison)
        }
    }

    private func expression(_ node: FetchExpression.Node, bound: Set<String>) throws(PredicateParseError) -> FetchExpression.Node {
        switch node {
        case .variable(let name) where !bound.contains(name), .keyPath(.variable(let name), []) where !bound.contains(name):
            guard let value = values[name] else { return node }
            guard let constant = FetchExpression.Node.constant(from: value) else {
                let typeName = flattenOptional(value).map { "\(type(of: $0))" } ?? "nil"
                throw error(PredicateParseError.unsupportedArgument, "\(typeName) values cannot be used in a predicate (for $\(name))")
            }
            return constant
        case .list(let elements):
            return .list(try elements.map { element throws(PredicateParseError) in try expression(element, bound: bound) })
        case .subquery(let collection, let variable, let condition):
            // The collection is evaluated outside the subquery, so its own variable is not yet bound there.
            return .subquery(collection: try expression(collection, bound: bound), variable: variable,
                             predicate: try predicate(condition, bound: bound.union([variable])))
        case .subqueryCount(let collection, let variable, let condition):
            return .subqueryCount(collection: try expression(collection, bound: bound), variable: variable,
                                  predicate: try predicate(condition, bound: bound.union([variable])))
        case .function(let name, let arguments):
            return .function(name: name, arguments: try arguments.map { argument throws(PredicateParseError) in try expression(argument, bound: bound) })
        case .constant, .variable, .keyPath, .evaluatedObject:
            return node
        }
    }

    /// The checks the parser makes on literals, for values that arrive by substitution.
    private func validate(_ comparison: FetchPredicate.Comparison) throws(PredicateParseError) {
        switch (comparison.op, comparison.rhs) {
        case (.between, .list(let bounds)) where bounds.count == 2:
            break
        case (.between, _):
            throw error(PredicateParseError.unsupportedArgument, "BETWEEN expects an array of two values")
        case (.matches, .constant(.string(let pattern))):
            if let problem = PredicateParser.regexProblem(pattern) {
                throw error(PredicateParseError.invalidRegularExpression,
                            "invalid regular expression \(PredicatePrinter.quoted(pattern)): \(problem)")
            }
        default:
            break
        }
    }

    private func error(_ code: CoreDataErrorCode, _ message: String) -> PredicateParseError {
        PredicateParseError(code: code, message: message, offset: 0, format: "")
    }
}
