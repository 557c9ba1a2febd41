/// Comparisons: of an operand with the right side, of objects by row key, on the elements of a
/// to-many key path, and those decided without reading a row.
extension SQLPredicateCompiler {
    func comparison(_ comparison: ResolvedComparison, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        if let decided = Self.decidedWithoutRows(comparison) { return truth(decided) }
        if case .keyPath(let path) = comparison.lhs, path.isCollection {
            return collectionComparison(comparison, path, in: scope)
        }
        guard let lhs = operand(comparison.lhs, in: scope) else { return nil }
        return compare(lhs, comparison.op, comparison.rhs, comparison.options, in: scope, negated: negated)
    }

    /// `ANY`/`ALL`/`NONE` (or a plain comparison) on the elements of a to-many key path.
    private func collectionComparison(_ comparison: ResolvedComparison, _ path: ResolvedKeyPath, in scope: SQLScope) -> SQLFragment? {
        guard let start = startAlias(of: path, in: scope),
              let lastToMany = path.steps.lastIndex(where: { if case .toMany = $0 { return true } else { return false } }),
              let chain = openChain(path.steps[...lastToMany], from: start, in: scope) else { return nil }
        let rest = path.steps[(lastToMany + 1)...]
        guard let element = value(of: rest, from: chain.element, in: chain.scope) else { return nil }
        let isAll = comparison.modifier == .all
        guard let test = compare(element, comparison.op, comparison.rhs, comparison.options, in: chain.scope, negated: isAll) else {
            return nil
        }
        let body = "SELECT 1 FROM \(chain.from)\(chain.scope.joinSQL) WHERE \(chain.link) AND "
        switch comparison.modifier {
        case .all: return test.wrapped { "NOT EXISTS (\(body)NOT (\($0)))" }
        case .none: return test.wrapped { "NOT EXISTS (\(body)\($0))" }
        case .any, .direct: return test.wrapped { "EXISTS (\(body)\($0))" }
        }
    }

    /// The answer to a comparison that reads no row: two constants (`nil ==[c] 5`, `ANY {1, 2}
    /// == 2`), which the evaluator decides, as it does in memory; nil otherwise, or when the
    /// evaluator throws (a `MATCHES` over its limit then fails in SQL as it does in memory).
    private static func decidedWithoutRows(_ comparison: ResolvedComparison) -> Bool? {
        func isConstant(_ expression: ResolvedExpression) -> Bool {
            switch expression {
            case .constant, .list: true
            case .keyPath, .subqueryCount: false
            }
        }
        guard isConstant(comparison.lhs), isConstant(comparison.rhs) else { return nil }
        return try? PredicateEvaluator().evaluate(.comparison(comparison), on: DictionarySubject(values: [:]))
    }

    /// A comparison with a NaN constant, decided without SQL: stores keep NaN as NULL (SQLite
    /// binds it so). NaN equals nothing and orders with nothing, so only `!=` is true; a NaN in
    /// an `IN` list matches nothing (the list leaves it out).
    private static func decidedByNaN(_ op: FetchPredicate.Operator, _ rhs: ResolvedExpression) -> Bool? {
        switch (op, rhs) {
        case (_, .constant(let value)) where value.isNaN:
            return op == .notEqualTo
        case (.between, .list(let bounds)) where bounds.contains(where: \.isNaN):
            return false
        default:
            return nil
        }
    }

    /// Compares an operand with the right side of a comparison.
    func compare(_ lhs: SQLOperand, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                 _ options: FetchPredicate.Options, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        if let decided = Self.decidedByNaN(op, rhs) { return truth(decided) }
        if lhs.isObject { return compareObject(lhs, op, rhs, in: scope, negated: negated) }
        if prefilters, !options.isEmpty { return prefilter(lhs, op, rhs, options, in: scope) }
        if let operation = StringMatching.Operation(op) {
            guard let pattern = operand(rhs, in: scope) else { return nil }
            return dialect.stringMatch(lhs, operation, pattern, options: options, negated: negated)
        }
        guard let left = folded(lhs, options) else { return nil }
        let wrap = { (fragment: SQLFragment) in negated ? fragment.wrapped(dialect.nullAsFalse) : fragment }
        switch (op, rhs) {
        case (.in, .list(let values)):
            let present = values.filter { !$0.isNull && !$0.isNaN }.map { bindable($0, options) }
            var parts: [SQLFragment] = []
            if !present.isEmpty {
                parts.append(SQLFragment("\(left.fragment.sql) IN (\(parameterList(present.count)))", left.fragment.arguments + present))
            }
            if values.contains(where: \.isNull) { parts.append(left.fragment.wrapped { "\($0) IS NULL" }) }
            guard !parts.isEmpty else { return truth(false) }
            return wrap(SQLFragment("(" + parts.map(\.sql).joined(separator: " OR ") + ")", parts.flatMap(\.arguments)))
        case (.between, .list(let bounds)) where bounds.count == 2:
            guard let low = dialect.comparison(left, .greaterThanOrEqualTo, parameter(bindable(bounds[0], options)), negated: false),
                  let high = dialect.comparison(left, .lessThanOrEqualTo, parameter(bindable(bounds[1], options)), negated: false) else {
                return nil
            }
            return wrap(SQLFragment("(\(low.sql) AND \(high.sql))", low.arguments + high.arguments))
        case (.in, _), (.between, _):
            return nil
        default:
            guard var right = operand(rhs, in: scope) else { return nil }
            let folds = !options.isEmpty && (lhs.type == .stringAttributeType || lhs.type == nil)
            if folds && !right.isObject {
                guard let foldedRight = folded(right, options) else { return nil }
                right = foldedRight
            }
            return dialect.comparison(left, op, right, negated: negated)
        }
    }

    /// Objects compare by row key. An object not yet saved has no row, so it equals none.
    private func compareObject(_ lhs: SQLOperand, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                               in scope: SQLScope, negated: Bool) -> SQLFragment? {
        let key = { (value: PropertyValue) -> PropertyValue? in
            guard case .object(let id) = value, !id.isTemporaryID else { return nil }
            return .integer(id.key)
        }
        switch (op, rhs) {
        case (.equalTo, .constant(.null)): return lhs.fragment.wrapped { "\($0) IS NULL" }
        case (.notEqualTo, .constant(.null)): return lhs.fragment.wrapped { "\($0) IS NOT NULL" }
        case (.equalTo, .constant(let value)), (.notEqualTo, .constant(let value)):
            guard let bound = key(value) else { return truth(op == .notEqualTo) }
            return dialect.comparison(lhs, op, parameter(bound, isObject: true), negated: negated)
        case (.in, .list(let values)):
            let keys = values.compactMap(key)
            var parts: [String] = []
            if !keys.isEmpty { parts.append("\(lhs.fragment.sql) IN (\(parameterList(keys.count)))") }
            if values.contains(where: \.isNull) { parts.append("\(lhs.fragment.sql) IS NULL") }
            guard !parts.isEmpty else { return truth(false) }
            let arguments = (keys.isEmpty ? [] : lhs.fragment.arguments + keys)
                + (values.contains(where: \.isNull) ? lhs.fragment.arguments : [])
            // A nil to-one IN (keys) is NULL, not false: under NOT it must still count as false.
            let test = "(" + parts.joined(separator: " OR ") + ")"
            return SQLFragment(negated ? dialect.nullAsFalse(test) : test, arguments)
        case (.equalTo, .keyPath), (.notEqualTo, .keyPath):
            // Object against object (`owner == owner`, `$p.team == SELF`): row keys, nil equal to nil.
            guard let right = operand(rhs, in: scope), right.isObject else { return nil }
            return dialect.comparison(lhs, op, right, negated: negated)
        default:
            return nil
        }
    }

    /// A constant as a bound argument, folded when the comparison folds strings.
    func bindable(_ value: PropertyValue, _ options: FetchPredicate.Options) -> PropertyValue {
        if !options.isEmpty, case .string(let text) = value {
            return .string(StringMatching.fold(text, options))
        }
        return value
    }

    /// An operand folded for `[c]`/`[d]` comparisons by the dialect; itself without options; nil
    /// when the dialect cannot fold.
    private func folded(_ operand: SQLOperand, _ options: FetchPredicate.Options) -> SQLOperand? {
        guard !options.isEmpty else { return operand }
        guard let fragment = dialect.folded(operand.fragment, options) else { return nil }
        return SQLOperand(fragment: fragment, isObject: operand.isObject, type: operand.type)
    }
}
