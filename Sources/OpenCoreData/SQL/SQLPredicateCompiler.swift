/// Compiles resolved predicates and sort keys to SQL in a dialect, with the semantics of
/// ``PredicateEvaluator``:
///
/// - `==`/`!=` treat nil as a value (the dialect's ``SQLDialect/comparison(_:_:_:negated:)``);
/// - under `NOT` (and inside `ALL`), comparisons that could be NULL are wrapped in the dialect's
///   ``SQLDialect/nullAsFalse(_:)`` so that SQL's three-valued logic gives the same two-valued
///   answer as memory;
/// - a key path through a to-many relationship becomes `EXISTS (SELECT 1 …)` for `ANY`,
///   `NOT EXISTS` for `NONE`, and `NOT EXISTS (… AND NOT …)` for `ALL`; aggregates and
///   `SUBQUERY(…).@count` become scalar subqueries;
/// - string operators, `[c]`/`[d]` folding, aggregates and sort comparisons are the dialect's
///   (the SQLite store's call functions and collations that run the same Swift code as memory);
/// - a comparison of two constants is decided here by the evaluator, and a comparison with NaN
///   (which equals nothing) becomes true for `!=` and false otherwise, so that no SQL rule about
///   NULL, types or NaN can make it differ from memory (stores keep NaN as NULL);
/// - long `AND`s and `OR`s are grouped (``SQLFragment/joined(_:by:ifEmpty:fanOut:)``) so that
///   the database accepts any number of terms.
///
/// Whatever cannot be expressed (transient attributes, what the dialect declines) returns nil;
/// the caller evaluates that part in memory. Comparisons are in `+Comparisons`, operands (key
/// paths, subqueries, aggregates) and sort terms in `+Operands`.
package struct SQLPredicateCompiler<Dialect: SQLDialect> {
    package let query: SQLQuery<Dialect>
    /// Whether folded comparisons compile to prefilters (`+Prefilter`) rather than exactly.
    let prefilters: Bool

    package init(query: SQLQuery<Dialect>) {
        self.init(query: query, prefilters: false)
    }

    init(query: SQLQuery<Dialect>, prefilters: Bool) {
        self.query = query
        self.prefilters = prefilters
    }

    var dialect: Dialect { query.dialect }

    /// The SQL condition of `predicate` for rows of `scope`, or nil to leave it to memory.
    /// `negated` says whether the condition sits under an odd number of `NOT`s.
    package func condition(_ predicate: ResolvedPredicate, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        switch predicate {
        case .constant(let value):
            return truth(value)
        case .not(let inner):
            return condition(inner, in: scope, negated: !negated).map { $0.wrapped { "(NOT \($0))" } }
        case .and(let predicates), .or(let predicates):
            let isAnd: Bool
            if case .and = predicate { isAnd = true } else { isAnd = false }
            guard !predicates.isEmpty else { return truth(isAnd) }
            var parts: [SQLFragment] = []
            for part in Self.mergingEqualities(predicates, isAnd: isAnd) {
                guard let compiled = condition(part, in: scope, negated: negated) else { return nil }
                parts.append(compiled)
            }
            return SQLFragment.joined(parts, by: isAnd ? "AND" : "OR", ifEmpty: truth(isAnd))
        case .comparison(let comparison):
            return self.comparison(comparison, in: scope, negated: negated)
        }
    }

    /// The operands of an `OR` with its equalities to constants of one key path merged into one
    /// `IN` (`a == 1 OR a == 2` is `a IN {1, 2}`), and of an `AND` with its inequalities merged
    /// into one `NOT IN`; others keep their place. Memory evaluates `IN` with the same equality,
    /// so the answer is the same; SQLite compares each operand of an `OR` with every other (a
    /// disjunction of 40,000 equalities took minutes), and an `IN` list takes a search.
    private static func mergingEqualities(_ predicates: [ResolvedPredicate], isAnd: Bool) -> [ResolvedPredicate] {
        var merged: [ResolvedPredicate] = []
        var groups: [String: (position: Int, comparison: ResolvedComparison, values: [PropertyValue])] = [:]
        for predicate in predicates {
            guard case .comparison(let comparison) = predicate, comparison.op == (isAnd ? .notEqualTo : .equalTo),
                  comparison.modifier == .direct, case .keyPath(let path) = comparison.lhs, !path.isCollection,
                  case .constant(let value) = comparison.rhs else {
                merged.append(predicate)
                continue
            }
            let key = "\(path.root) \(path.text) \(comparison.options.rawValue)"
            if groups[key] == nil {
                groups[key] = (merged.count, comparison, [])
                merged.append(predicate)
            }
            groups[key]?.values.append(value)
        }
        for group in groups.values where group.values.count > 1 {
            var list = group.comparison
            list.op = .in
            list.rhs = .list(group.values)
            merged[group.position] = isAnd ? .not(.comparison(list)) : .comparison(list)
        }
        return merged
    }

    // MARK: Text the dialect writes

    /// A condition that is always true or always false.
    func truth(_ value: Bool) -> SQLFragment {
        SQLFragment(dialect.truth(value))
    }

    /// A bound constant.
    func parameter(_ value: PropertyValue, isObject: Bool = false) -> SQLOperand {
        SQLOperand(fragment: SQLFragment(dialect.parameterMarker, [value]), isObject: isObject, constant: value)
    }

    /// `count` placeholders separated by commas, for an `IN` list.
    func parameterList(_ count: Int) -> String {
        Array(repeating: dialect.parameterMarker, count: count).joined(separator: ", ")
    }
}

extension SQLPredicateCompiler {
    /// A fetch's WHERE clause (`" WHERE …"`, or empty) of `conditions` and the conjuncts that
    /// compile, and the residual: the conjuncts that do not (all of them when `compiling` is
    /// false), for the store to return and memory to apply. A residual conjunct with folded
    /// comparisons puts its prefilter (`+Prefilter`) in the clause when the dialect has one.
    package func whereClause(_ conditions: [SQLFragment], conjuncts: [ResolvedPredicate],
                             compiling: Bool = true) -> (clause: SQLFragment, residual: ResolvedPredicate?) {
        var conditions = conditions
        var residual: [ResolvedPredicate] = []
        for conjunct in conjuncts {
            if compiling, let condition = condition(conjunct, in: query.root, negated: false) {
                conditions.append(condition)
                continue
            }
            // A conjunct memory must decide may still narrow the rows it reads.
            if compiling, Self.foldsOnlyWherePrefiltersHold(conjunct),
               let prefilter = SQLPredicateCompiler(query: query, prefilters: true).condition(conjunct, in: query.root, negated: false) {
                conditions.append(prefilter)
            }
            residual.append(conjunct)
        }
        let conjunction = SQLFragment.joined(conditions, by: "AND", ifEmpty: SQLFragment(""))
        let clause = conditions.isEmpty ? SQLFragment("") : SQLFragment(" WHERE " + conjunction.sql, conjunction.arguments)
        return (clause, residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : .and(residual)))
    }
}
