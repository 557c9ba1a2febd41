import GRDB

/// Section counts: one grouped SELECT over the rows a fetch selects.
extension SQLiteStoreBackend {
    /// Groups by the column's stored value and orders the groups with the fetch's own ORDER BY
    /// term for the key. Values that differ but sort equal (case variants under a
    /// case-insensitive key) stay separate groups, ordered by their first row in the fetch
    /// (`MIN(_pk)`, the fetch's tie-break), although the fetch interleaves their rows.
    func sectionCounts(_ fetch: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]? {
        guard fetch.limit == 0, fetch.offset == 0, key.path.steps.count == 1,
              case .attribute(let attribute) = key.path.steps[0], attribute.isPersistent else { return nil }
        let loaded = try loaded
        let filter = try self.filter(for: fetch, loaded: loaded)
        guard filter.residual == nil, let terms = filter.compiler.orderTerms([key], in: filter.query.root) else { return nil }
        let column = filter.query.column(filter.query.root.alias, attribute)
        // Under a binary comparison distinct values never sort equal, so the groups need no
        // tie-break, and the query is a plain scan of an index on the key.
        let tieBreak = key.comparison == .binary || attribute.attributeType != .stringAttributeType ? "" : ", MIN(t0.\"_pk\")"
        let sql = "SELECT \(column), COUNT(*) FROM \(quoted(filter.table.name)) t0\(filter.query.root.joinSQL)\(filter.whereClause.sql)"
            + " GROUP BY \(column) ORDER BY \(terms.joined(separator: ", "))\(tieBreak)"
        return try reading("counting sections of \(fetch.entity.entityName)") { db -> [SectionCount]? in
            var result: [SectionCount] = []
            let statement: Statement
            do {
                statement = try db.makeStatement(sql: sql)
            } catch where SQLiteLimits.isExceeded(by: error) {
                return nil  // the caller counts the rows of the fetch, which leaves the predicate to memory
            }
            let rows = try Row.fetchCursor(statement, arguments: SQLiteValueCoding.statementArguments(filter.whereClause.arguments))
            while let row = try rows.next() {
                let value = SQLiteValueCoding.propertyValue(row[0], type: attribute.attributeType)
                let count: Int = try row.decode(atIndex: 1)
                // Stored forms that read as one value (2 and 1 in a boolean column) are one run of the fetch.
                if let last = result.indices.last, result[last].value == value {
                    result[last].count += count
                } else {
                    result.append(SectionCount(value: value, count: count))
                }
            }
            return result
        }
    }
}
