import GRDB

/// Grouped fetches: one `GROUP BY` over the rows a fetch selects.
extension SQLiteStoreBackend {
    /// Sums and averages use the store's `ocd_sum` and `ocd_avg`, which add up as memory does.
    /// Groups by relationships, and predicates the store cannot express, return nil.
    func aggregate(_ aggregate: StoreAggregateFetch) throws -> [[PropertyValue]]? {
        let keys = aggregate.groupKeys.compactMap { $0 as? AttributeDescription }
        guard keys.count == aggregate.groupKeys.count else { return nil }
        let loaded = try loaded
        let filter = try self.filter(for: aggregate.fetch, loaded: loaded)
        guard filter.residual == nil else { return nil }
        let query = filter.query
        let keyColumns = keys.map { query.column(query.root.alias, $0) }
        let functionColumns = aggregate.functions.map { function -> String in
            let column = query.column(query.root.alias, function.property)
            return switch function.kind {
            case .sum: "\(SQLiteFunctions.sum)(\(column))"
            case .average: "\(SQLiteFunctions.avg)(\(column))"
            case .min: "MIN(\(column))"
            case .max: "MAX(\(column))"
            case .count: "COUNT(\(column))"
            }
        }
        let grouping = keyColumns.isEmpty ? "" : " GROUP BY \(keyColumns.joined(separator: ", "))"
        let sql = "SELECT \((keyColumns + functionColumns).joined(separator: ", ")) FROM \(quoted(filter.table.name)) t0"
            + "\(query.root.joinSQL)\(filter.whereClause.sql)\(grouping)"
        return try reading("grouping \(aggregate.fetch.entity.entityName)") { db -> [[PropertyValue]]? in
            let statement: Statement
            do {
                statement = try db.makeStatement(sql: sql)
            } catch where SQLiteLimits.isExceeded(by: error) {
                return nil  // the caller groups the fetched rows, which leaves the predicate to memory
            }
            var groups: [[PropertyValue]] = []
            let rows = try Row.fetchCursor(statement, arguments: SQLiteValueCoding.statementArguments(filter.whereClause.arguments))
            while let row = try rows.next() {
                var group = keys.enumerated().map { index, key in
                    SQLiteValueCoding.propertyValue(row[index], type: key.attributeType)
                }
                for (offset, function) in aggregate.functions.enumerated() {
                    let value: DatabaseValue = row[keys.count + offset]
                    group.append(Self.functionValue(value, of: function))
                }
                groups.append(group)
            }
            return groups
        }
    }

    private static func functionValue(_ value: DatabaseValue, of function: StoreAggregateFetch.Function) -> PropertyValue {
        switch function.kind {
        case .sum, .average, .count:
            return SQLiteFunctions.number(value) ?? .null
        case .min, .max:
            let type = (function.property as? AttributeDescription)?.attributeType ?? .integer64
            return SQLiteValueCoding.propertyValue(value, type: type)
        }
    }
}
