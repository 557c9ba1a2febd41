import Foundation
import GRDB

/// Compiles resolved predicates and sort keys to SQL for the SQLite store, with the semantics of
/// ``PredicateEvaluator``:
///
/// - `==`/`!=` become `IS`/`IS NOT`, which treat NULL as a value;
/// - under `NOT` (and inside `ALL`), comparisons that could be NULL are wrapped in `IFNULL(…, 0)`
///   so that SQL's three-valued logic gives the same two-valued answer as memory;
/// - a key path through a to-many relationship becomes `EXISTS (SELECT 1 …)` for `ANY`,
///   `NOT EXISTS` for `NONE`, and `NOT EXISTS (… AND NOT …)` for `ALL`; aggregates and
///   `SUBQUERY(…).@count` become scalar subqueries;
/// - string operators, `[c]`/`[d]` folding and sort comparisons call the store's registered
///   functions and collations, which run the same Swift code as memory;
/// - a comparison of two constants is decided here by the evaluator, and a comparison with NaN
///   (which equals nothing) becomes `1` for `!=` and `0` otherwise, so that no SQL rule about
///   NULL, types or NaN can make it differ from memory;
/// - long `AND`s and `OR`s are grouped (``SQLFragment/joined(_:by:fanOut:)``) so that SQLite
///   accepts any number of terms.
///
/// Whatever cannot be expressed (transient attributes, decimal sums) returns nil; the caller
/// evaluates that part in memory.
struct SQLitePredicateCompiler {
    let query: SQLiteQuery

    /// A value in SQL: a column, a scalar subquery, or a row key (for objects).
    private struct Operand {
        var fragment: SQLFragment
        var isObject = false
        var type: AttributeType?
    }

    func condition(_ predicate: ResolvedPredicate, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        switch predicate {
        case .constant(let value):
            return SQLFragment(value ? "1" : "0")
        case .not(let inner):
            return condition(inner, in: scope, negated: !negated).map { SQLFragment("(NOT \($0.sql))", $0.arguments) }
        case .and(let predicates), .or(let predicates):
            let isAnd: Bool
            if case .and = predicate { isAnd = true } else { isAnd = false }
            guard !predicates.isEmpty else { return SQLFragment(isAnd ? "1" : "0") }
            var parts: [SQLFragment] = []
            for part in Self.mergingEqualities(predicates, isAnd: isAnd) {
                guard let compiled = condition(part, in: scope, negated: negated) else { return nil }
                parts.append(compiled)
            }
            return SQLFragment.joined(parts, by: isAnd ? "AND" : "OR")
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

    // MARK: Comparisons

    private func comparison(_ comparison: ResolvedComparison, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        if let decided = Self.decidedWithoutRows(comparison) { return SQLFragment(decided ? "1" : "0") }
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
        case .all: return SQLFragment("NOT EXISTS (\(body)NOT (\(test.sql)))", test.arguments)
        case .none: return SQLFragment("NOT EXISTS (\(body)\(test.sql))", test.arguments)
        case .any, .direct: return SQLFragment("EXISTS (\(body)\(test.sql))", test.arguments)
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

    /// A comparison with a NaN constant, decided without SQL: SQLite would bind NaN as NULL.
    /// NaN equals nothing and orders with nothing, so only `!=` is true; a NaN in an `IN` list
    /// matches nothing (the list leaves it out).
    private static func decidedByNaN(_ op: FetchPredicate.Operator, _ rhs: ResolvedExpression) -> SQLFragment? {
        switch (op, rhs) {
        case (_, .constant(let value)) where value.isNaN:
            return SQLFragment(op == .notEqualTo ? "1" : "0")
        case (.between, .list(let bounds)) where bounds.contains(where: \.isNaN):
            return SQLFragment("0")
        default:
            return nil
        }
    }

    /// Compares an operand with the right side of a comparison.
    private func compare(_ lhs: Operand, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                         _ options: FetchPredicate.Options, in scope: SQLScope, negated: Bool) -> SQLFragment? {
        if let decided = Self.decidedByNaN(op, rhs) { return decided }
        if lhs.isObject { return compareObject(lhs, op, rhs, in: scope, negated: negated) }
        if let operation = StringMatching.Operation(op) {
            guard let pattern = operand(rhs, in: scope) else { return nil }
            return SQLFragment("\(SQLiteFunctions.stringMatch)(\(lhs.fragment.sql), \(pattern.fragment.sql), \(operation.rawValue), \(options.rawValue))",
                               lhs.fragment.arguments + pattern.fragment.arguments)
        }
        let left = folded(lhs.fragment, options)
        let wrap = { (fragment: SQLFragment) in negated ? SQLFragment("IFNULL(\(fragment.sql), 0)", fragment.arguments) : fragment }
        switch (op, rhs) {
        case (.in, .list(let values)):
            let present = values.filter { !$0.isNull && !$0.isNaN }.map { bindable($0, options) }
            var parts: [SQLFragment] = []
            if !present.isEmpty {
                parts.append(SQLFragment("\(left.sql) IN (\(Array(repeating: "?", count: present.count).joined(separator: ", ")))",
                                         left.arguments + present))
            }
            if values.contains(where: \.isNull) { parts.append(SQLFragment("\(left.sql) IS NULL", left.arguments)) }
            guard !parts.isEmpty else { return SQLFragment("0") }
            return wrap(SQLFragment("(" + parts.map(\.sql).joined(separator: " OR ") + ")", parts.flatMap(\.arguments)))
        case (.between, .list(let bounds)) where bounds.count == 2:
            let low = bindable(bounds[0], options), high = bindable(bounds[1], options)
            return wrap(SQLFragment("(\(left.sql) >= ? AND \(left.sql) <= ?)", left.arguments + [low] + left.arguments + [high]))
        case (.in, _), (.between, _):
            return nil
        default:
            guard let right = operand(rhs, in: scope) else { return nil }
            let folds = !options.isEmpty && (lhs.type == .stringAttributeType || lhs.type == nil)
            let rightSQL = folds && !right.isObject ? folded(right.fragment, options) : right.fragment
            let arguments = left.arguments + rightSQL.arguments
            if let leftType = lhs.type, let rightType = right.type, leftType.isNumeric, rightType.isNumeric,
               (leftType == .decimalAttributeType) != (rightType == .decimalAttributeType) {
                // A decimal (TEXT) against another number: SQLite would convert a computed double
                // to 15-digit text, or the decimal to a double; compare as memory does instead.
                let order = "\(SQLiteFunctions.compareNumbers)(\(left.sql), \(leftType == .decimalAttributeType ? 1 : 0), \(rightSQL.sql), \(rightType == .decimalAttributeType ? 1 : 0))"
                let bothNil = "(\(left.sql) IS NULL AND \(rightSQL.sql) IS NULL)"
                let twice = arguments + arguments
                switch op {
                case .equalTo: return SQLFragment("IFNULL(\(order) = 0, \(bothNil))", twice)
                case .notEqualTo: return SQLFragment("NOT IFNULL(\(order) = 0, \(bothNil))", twice)
                case .lessThan: return wrap(SQLFragment("\(order) < 0", arguments))
                case .lessThanOrEqualTo: return wrap(SQLFragment("\(order) <= 0", arguments))
                case .greaterThan: return wrap(SQLFragment("\(order) > 0", arguments))
                case .greaterThanOrEqualTo: return wrap(SQLFragment("\(order) >= 0", arguments))
                default: return nil
                }
            }
            switch op {
            case .equalTo: return SQLFragment("\(left.sql) IS \(rightSQL.sql)", arguments)
            case .notEqualTo: return SQLFragment("\(left.sql) IS NOT \(rightSQL.sql)", arguments)
            case .lessThan: return wrap(SQLFragment("\(left.sql) < \(rightSQL.sql)", arguments))
            case .lessThanOrEqualTo: return wrap(SQLFragment("\(left.sql) <= \(rightSQL.sql)", arguments))
            case .greaterThan: return wrap(SQLFragment("\(left.sql) > \(rightSQL.sql)", arguments))
            case .greaterThanOrEqualTo: return wrap(SQLFragment("\(left.sql) >= \(rightSQL.sql)", arguments))
            default: return nil
            }
        }
    }

    /// Objects compare by row key. An object not yet saved has no row, so it equals none.
    private func compareObject(_ lhs: Operand, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                               in scope: SQLScope, negated: Bool) -> SQLFragment? {
        let key = { (value: PropertyValue) -> DatabaseValue? in
            guard case .object(let id) = value, !id.isTemporaryID else { return nil }
            return id.key.databaseValue
        }
        switch (op, rhs) {
        case (.equalTo, .constant(.null)): return SQLFragment("\(lhs.fragment.sql) IS NULL", lhs.fragment.arguments)
        case (.notEqualTo, .constant(.null)): return SQLFragment("\(lhs.fragment.sql) IS NOT NULL", lhs.fragment.arguments)
        case (.equalTo, .constant(let value)):
            guard let bound = key(value) else { return SQLFragment("0") }
            return SQLFragment("\(lhs.fragment.sql) IS ?", lhs.fragment.arguments + [bound])
        case (.notEqualTo, .constant(let value)):
            guard let bound = key(value) else { return SQLFragment("1") }
            return SQLFragment("\(lhs.fragment.sql) IS NOT ?", lhs.fragment.arguments + [bound])
        case (.in, .list(let values)):
            let keys = values.compactMap(key)
            var parts: [String] = []
            if !keys.isEmpty { parts.append("\(lhs.fragment.sql) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))") }
            if values.contains(where: \.isNull) { parts.append("\(lhs.fragment.sql) IS NULL") }
            guard !parts.isEmpty else { return SQLFragment("0") }
            let arguments = (keys.isEmpty ? [] : lhs.fragment.arguments + keys)
                + (values.contains(where: \.isNull) ? lhs.fragment.arguments : [])
            // A nil to-one IN (keys) is NULL, not false: under NOT it must still count as false.
            let test = "(" + parts.joined(separator: " OR ") + ")"
            return SQLFragment(negated ? "IFNULL(\(test), 0)" : test, arguments)
        case (.equalTo, .keyPath), (.notEqualTo, .keyPath):
            // Object against object (`owner == owner`, `$p.team == SELF`): row keys, nil equal to nil.
            guard let right = operand(rhs, in: scope), right.isObject else { return nil }
            return SQLFragment("\(lhs.fragment.sql) \(op == .equalTo ? "IS" : "IS NOT") \(right.fragment.sql)",
                               lhs.fragment.arguments + right.fragment.arguments)
        default:
            return nil
        }
    }

    // MARK: Operands

    private func operand(_ expression: ResolvedExpression, in scope: SQLScope) -> Operand? {
        switch expression {
        case .constant(let value):
            if case .object = value { return nil }
            return Operand(fragment: SQLFragment("?", [SQLiteValueCoding.databaseValue(value)]))
        case .list:
            return nil
        case .keyPath(let path):
            guard !path.isCollection, let start = startAlias(of: path, in: scope) else { return nil }
            return value(of: path.steps[...], from: start, in: scope)
        case .subqueryCount(let subquery):
            guard let start = startAlias(of: subquery.collection, in: scope),
                  let chain = openChain(subquery.collection.steps[...], from: start, in: scope) else { return nil }
            chain.scope.bind(subquery.variable, to: chain.element)
            guard let test = condition(subquery.predicate, in: chain.scope, negated: false) else { return nil }
            return Operand(fragment: SQLFragment(
                "(SELECT COUNT(*) FROM \(chain.from)\(chain.scope.joinSQL) WHERE \(chain.link) AND \(test.sql))", test.arguments),
                type: .integer64AttributeType)
        }
    }

    private func startAlias(of path: ResolvedKeyPath, in scope: SQLScope) -> String? {
        switch path.root {
        case .object: return scopeRootAlias(scope)
        case .variable(let name): return scope.alias(of: name)
        }
    }

    private func scopeRootAlias(_ scope: SQLScope) -> String {
        var current = scope
        while let parent = current.parent { current = parent }
        return current.alias
    }

    /// The single value a path yields from a row: a column through to-one joins, a row key, or
    /// an aggregate subquery over a to-many relationship.
    private func value(of steps: ArraySlice<ResolvedKeyPath.Step>, from start: String, in scope: SQLScope) -> Operand? {
        var alias = start
        for index in steps.indices {
            switch steps[index] {
            case .attribute(let attribute):
                guard attribute.isPersistent else { return nil }
                return Operand(fragment: SQLFragment(query.column(alias, attribute)), type: attribute.attributeType)
            case .toOne(let relationship):
                if index == steps.index(before: steps.endIndex) {
                    return Operand(fragment: SQLFragment(query.column(alias, relationship)), isObject: true)
                }
                guard let joined = query.joinToOne(relationship, from: alias, in: scope) else { return nil }
                alias = joined
            case .toMany:
                return aggregate(steps[index...], from: alias, in: scope)
            case .count, .aggregate, .key, .keyAggregate:
                return nil
            }
        }
        return Operand(fragment: SQLFragment("\(alias).\"_pk\""), isObject: true)
    }

    /// `@count` or `@sum`/`@avg`/`@min`/`@max` over the collection `steps` leads to.
    private func aggregate(_ steps: ArraySlice<ResolvedKeyPath.Step>, from start: String, in scope: SQLScope) -> Operand? {
        guard let last = steps.last, let chain = openChain(steps.dropLast(), from: start, in: scope) else { return nil }
        let from = "FROM \(chain.from)\(chain.scope.joinSQL) WHERE \(chain.link)"
        switch last {
        case .count:
            return Operand(fragment: SQLFragment("(SELECT COUNT(*) \(from))"), type: .integer64AttributeType)
        case .aggregate(let function, let attribute):
            // Decimal text would be summed as floating point: leave decimal sums to memory.
            guard attribute.isPersistent, !(attribute.attributeType == .decimalAttributeType && (function == .sum || function == .avg)) else {
                return nil
            }
            let column = query.column(chain.element, attribute)
            let sql: String
            switch function {
            case .sum: sql = "\(SQLiteFunctions.sum)(\(column))"
            case .avg: sql = "\(SQLiteFunctions.avg)(\(column))"
            case .min: sql = "MIN(\(column))"
            case .max: sql = "MAX(\(column))"
            }
            // A scalar subquery loses the column's collation: decimal text must still compare by value.
            let collation = attribute.attributeType == .decimalAttributeType ? " COLLATE \(SQLiteValueCoding.decimalCollationName)" : ""
            return Operand(fragment: SQLFragment("(SELECT \(sql) \(from))\(collation)"),
                           type: function == .avg ? .doubleAttributeType : attribute.attributeType)
        default:
            return nil
        }
    }

    /// A subquery over the elements a run of to-one and to-many steps reaches (the steps must
    /// include a to-many): its FROM clause, the link to the outer row, and the element alias.
    private func openChain(_ steps: ArraySlice<ResolvedKeyPath.Step>, from start: String,
                           in scope: SQLScope) -> (from: String, link: String, element: String, scope: SQLScope)? {
        var alias = start
        var source: (from: String, link: String, element: String)?
        var nested: SQLScope?
        for step in steps {
            switch step {
            case .toOne(let relationship):
                guard let joined = query.joinToOne(relationship, from: alias, in: nested ?? scope) else { return nil }
                alias = joined
            case .toMany(let relationship):
                if let nested {
                    guard let joined = query.joinToMany(relationship, from: alias, in: nested) else { return nil }
                    alias = joined
                } else {
                    guard let opened = query.collectionSource(relationship, from: alias) else { return nil }
                    source = opened
                    nested = SQLScope(alias: opened.element, parent: scope)
                    alias = opened.element
                }
            default:
                return nil
            }
        }
        guard let source, let nested else { return nil }
        return (source.from, source.link, alias, nested)
    }

    // MARK: Values

    /// A constant as a bound argument, folded when the comparison folds strings.
    private func bindable(_ value: PropertyValue, _ options: FetchPredicate.Options) -> DatabaseValue {
        if !options.isEmpty, case .string(let text) = value {
            return StringMatching.fold(text, options).databaseValue
        }
        return SQLiteValueCoding.databaseValue(value)
    }

    private func folded(_ fragment: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment {
        guard !options.isEmpty else { return fragment }
        return SQLFragment("\(SQLiteFunctions.fold)(\(fragment.sql), \(options.rawValue))", fragment.arguments)
    }

    // MARK: Sorting

    /// `ORDER BY` terms for sort keys, with the store's collations for string comparisons.
    func orderTerms(_ keys: [ResolvedSortKey], in scope: SQLScope) -> [String]? {
        var terms: [String] = []
        for key in keys {
            guard let operand = value(of: key.path.steps[...], from: scope.alias, in: scope) else { return nil }
            var term = operand.fragment.sql
            if key.attribute.attributeType == .stringAttributeType {
                switch key.comparison {
                case .binary: break
                case .caseInsensitive: term += " COLLATE \(SQLiteFunctions.caseInsensitiveCollation)"
                case .localizedStandard: term += " COLLATE \(SQLiteFunctions.localizedStandardCollation)"
                }
            }
            terms.append(key.ascending ? term : term + " DESC")
        }
        return terms
    }
}
