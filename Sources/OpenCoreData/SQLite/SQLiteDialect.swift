/// SQLite's side of the predicate compiler (``SQLPredicateCompiler``): positional `?`
/// placeholders, identifiers in double quotes, `1`/`0` for truth, `IS`/`IS NOT` for equality
/// (NULL is a value to them), and, for what SQLite lacks or does differently, the store's
/// registered functions and collations (``SQLiteFunctions``), which run the same Swift code as
/// memory: string operators, `[c]`/`[d]` folding, decimals against other numbers, `@sum`/`@avg`,
/// and case-insensitive and localized sorts.
struct SQLiteDialect: SQLDialect {
    /// SQLite's own placeholder: fragments are final as compiled, so the SQLite store's other
    /// statements may add `?`s of their own around them and bind in text order.
    var parameterMarker: String { "?" }

    func statementText(_ sql: String) -> String { sql }

    func quotedIdentifier(_ name: String) -> String { quoted(name) }

    func truth(_ value: Bool) -> String { value ? "1" : "0" }

    func nullAsFalse(_ condition: String) -> String { "IFNULL(\(condition), 0)" }

    /// `IS` and `IS NOT` are two-valued; an ordering against NULL is NULL, read as false under `NOT`.
    func comparison(_ left: SQLOperand, _ op: FetchPredicate.Operator, _ right: SQLOperand, negated: Bool) -> SQLFragment? {
        let ordering: String?
        switch op {
        case .equalTo, .notEqualTo: ordering = nil
        case .lessThan: ordering = "<"
        case .lessThanOrEqualTo: ordering = "<="
        case .greaterThan: ordering = ">"
        case .greaterThanOrEqualTo: ordering = ">="
        default: return nil
        }
        let l = left.fragment, r = right.fragment
        let arguments = l.arguments + r.arguments
        let not = op == .notEqualTo ? "NOT " : ""
        if let leftType = left.type, let rightType = right.type, leftType.isNumeric, rightType.isNumeric,
           (leftType == .decimalAttributeType) != (rightType == .decimalAttributeType) {
            // A decimal (TEXT) against another number: SQLite would convert a computed double
            // to 15-digit text, or the decimal to a double; compare as memory does instead.
            let order = "\(SQLiteFunctions.compareNumbers)(\(l.sql), \(leftType == .decimalAttributeType ? 1 : 0), \(r.sql), \(rightType == .decimalAttributeType ? 1 : 0))"
            guard let ordering else {
                return SQLFragment("\(not)IFNULL(\(order) = 0, (\(l.sql) IS NULL AND \(r.sql) IS NULL))", arguments + arguments)
            }
            return SQLFragment(negated ? nullAsFalse("\(order) \(ordering) 0") : "\(order) \(ordering) 0", arguments)
        }
        guard let ordering else { return SQLFragment("\(l.sql) IS \(not)\(r.sql)", arguments) }
        return SQLFragment(negated ? nullAsFalse("\(l.sql) \(ordering) \(r.sql)") : "\(l.sql) \(ordering) \(r.sql)", arguments)
    }

    /// `ocd_string_match` gives 0, never NULL, for a nil side.
    func stringMatch(_ value: SQLOperand, _ operation: StringMatching.Operation, _ pattern: SQLOperand,
                     options: FetchPredicate.Options, negated: Bool) -> SQLFragment? {
        SQLFragment("\(SQLiteFunctions.stringMatch)(\(value.fragment.sql), \(pattern.fragment.sql), \(operation.rawValue), \(options.rawValue))",
                    value.fragment.arguments + pattern.fragment.arguments)
    }

    func folded(_ value: SQLFragment, _ options: FetchPredicate.Options) -> SQLFragment? {
        value.wrapped { "\(SQLiteFunctions.fold)(\($0), \(options.rawValue))" }
    }

    func aggregate(_ function: ResolvedKeyPath.AggregateFunction, of column: String, type: AttributeType,
                   source: String) -> String? {
        // Decimal text would be summed as floating point: leave decimal sums to memory.
        guard !(type == .decimalAttributeType && (function == .sum || function == .avg)) else { return nil }
        let sql: String
        switch function {
        case .sum: sql = "\(SQLiteFunctions.sum)(\(column))"
        case .avg: sql = "\(SQLiteFunctions.avg)(\(column))"
        case .min: sql = "MIN(\(column))"
        case .max: sql = "MAX(\(column))"
        }
        // A scalar subquery loses the column's collation: decimal text must still compare by value.
        let collation = type == .decimalAttributeType ? " COLLATE \(SQLiteValueCoding.decimalCollationName)" : ""
        return "(SELECT \(sql) \(source))\(collation)"
    }

    func orderTerm(_ value: String, type: AttributeType, comparison: FetchSortDescriptor.Comparison,
                   ascending: Bool) -> String? {
        var term = value
        if type == .stringAttributeType {
            switch comparison {
            case .binary: break
            case .caseInsensitive: term += " COLLATE \(SQLiteFunctions.caseInsensitiveCollation)"
            case .localizedStandard: term += " COLLATE \(SQLiteFunctions.localizedStandardCollation)"
            }
        }
        // SQLite puts NULL first when ascending, as memory does.
        return ascending ? term : term + " DESC"
    }
}

typealias SQLiteQuery = SQLQuery<SQLiteDialect>
typealias SQLitePredicateCompiler = SQLPredicateCompiler<SQLiteDialect>

/// The names the predicate compiler writes, from the store's tables.
extension SQLiteSchema: SQLTableLayout {
    package func tableName(of entity: EntityDescription) -> String {
        entity.rootEntity.entityName
    }

    package func joinTableName(for owner: RelationshipDescription) -> String? {
        joinTable(for: owner)?.name
    }
}
