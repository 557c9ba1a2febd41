/// Prefilters: conditions true of every row a `[c]`/`[d]` comparison is true of (and maybe of
/// others), for a database that cannot fold text as Foundation does. The store puts the
/// prefilter in its WHERE clause and returns the conjunct as the residual too, so memory keeps
/// the rows that really match: the database reads the few rows that may, not the whole table.
///
/// A folded comparison becomes `non-ASCII(value) OR exact`: text of ASCII characters only folds
/// in SQL as memory folds it (the dialect's ``SQLDialect/asciiFolded(_:_:)``), so on those rows
/// the comparison is exact, and every row holding other characters passes to memory. A superset
/// stays a superset under `AND`, `OR` and `ANY` but not under `NOT`, `ALL`, `NONE` or inside a
/// `SUBQUERY`, so a conjunct with a folded comparison in such a place gets no prefilter
/// (``foldsOnlyWherePrefiltersHold(_:)``).
extension SQLPredicateCompiler {
    /// Whether `predicate` has folded comparisons, all in places where a superset of a
    /// comparison's rows gives a superset of the predicate's.
    package static func foldsOnlyWherePrefiltersHold(_ predicate: ResolvedPredicate) -> Bool {
        var folds = false
        func check(_ predicate: ResolvedPredicate, monotone: Bool) -> Bool {
            switch predicate {
            case .constant: return true
            case .not(let inner): return check(inner, monotone: false)
            case .and(let parts), .or(let parts): return parts.allSatisfy { check($0, monotone: monotone) }
            case .comparison(let comparison):
                guard [comparison.lhs, comparison.rhs].allSatisfy(subqueriesDoNotFold) else { return false }
                guard !comparison.options.isEmpty else { return true }
                folds = true
                return monotone && (comparison.modifier == .direct || comparison.modifier == .any)
            }
        }
        func subqueriesDoNotFold(_ expression: ResolvedExpression) -> Bool {
            guard case .subqueryCount(let subquery) = expression else { return true }
            return !hasFolding(subquery.predicate)
        }
        func hasFolding(_ predicate: ResolvedPredicate) -> Bool {
            switch predicate {
            case .constant: return false
            case .not(let inner): return hasFolding(inner)
            case .and(let parts), .or(let parts): return parts.contains(where: hasFolding)
            case .comparison(let comparison):
                return !comparison.options.isEmpty || !subqueriesDoNotFold(comparison.lhs) || !subqueriesDoNotFold(comparison.rhs)
            }
        }
        return check(predicate, monotone: true) && folds
    }

    /// The prefilter of a folded comparison of `lhs` (see the extension's comment), or nil when
    /// the dialect cannot fold ASCII text or the comparison has no exact form for it.
    func prefilter(_ lhs: SQLOperand, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                   _ options: FetchPredicate.Options, in scope: SQLScope) -> SQLFragment? {
        // Text only: memory does not fold URLs as it folds strings.
        guard lhs.type == .stringAttributeType,
              let foldedLeft = dialect.asciiFolded(lhs.fragment, options),
              let leftOutsideASCII = dialect.holdsNonASCII(lhs.fragment) else { return nil }
        let left = SQLOperand(fragment: foldedLeft, type: lhs.type)
        var outsideASCII = [leftOutsideASCII]
        let exact: SQLFragment?
        if let operation = StringMatching.Operation(op) {
            guard operation != .matches, case .constant(.string(let pattern)) = rhs else { return nil }
            exact = dialect.stringMatch(left, operation, parameter(.string(StringMatching.fold(pattern, options))),
                                        options: [], negated: false)
        } else {
            switch rhs {
            case .constant(let value):
                exact = compare(left, op, .constant(bindable(value, options)), [], in: scope, negated: false)
            case .list(let values):
                exact = compare(left, op, .list(values.map { bindable($0, options) }), [], in: scope, negated: false)
            case .keyPath:
                guard let right = operand(rhs, in: scope), right.type == .stringAttributeType,
                      let foldedRight = dialect.asciiFolded(right.fragment, options),
                      let rightOutsideASCII = dialect.holdsNonASCII(right.fragment) else { return nil }
                outsideASCII.append(rightOutsideASCII)
                exact = dialect.comparison(left, op, SQLOperand(fragment: foldedRight, type: right.type), negated: false)
            case .subqueryCount:
                exact = nil
            }
        }
        guard let exact else { return nil }
        return SQLFragment.joined(outsideASCII + [exact], by: "OR", ifEmpty: truth(true))
    }
}
