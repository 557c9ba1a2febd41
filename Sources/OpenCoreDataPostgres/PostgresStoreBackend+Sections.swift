#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Section counts: one grouped SELECT over the rows a fetch selects.
extension PostgresStoreBackend {
    /// Groups by the column's stored value, in the order of the fetch's own `ORDER BY` term for
    /// the key. Keys PostgreSQL cannot order as memory does (folded or localized text) return nil:
    /// the caller then counts the fetched rows.
    package func sectionCounts(_ fetch: StoreFetch, groupedBy key: ResolvedSortKey) throws -> [SectionCount]? {
        guard fetch.limit == 0, fetch.offset == 0, key.path.steps.count == 1,
              case .attribute(let attribute) = key.path.steps[0], attribute.isPersistent else { return nil }
        let filter = try self.filter(for: fetch, loaded: try loaded)
        guard filter.residual == nil, let terms = filter.compiler.orderTerms([key], in: filter.query.root) else { return nil }
        let column = filter.query.column(filter.query.root.alias, attribute)
        let selected = attribute.attributeType == .decimalAttributeType ? "\(column)::text" : column
        let source = filter.source
        let sql = "SELECT \(selected), COUNT(*)\(source.sql) GROUP BY \(column) ORDER BY \(terms.joined(separator: ", "))"
        let rows = try read(SQLFragment(sql, source.arguments))
        var result: [SectionCount] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let value = try PostgresValueCoding.propertyValue(cells[0], type: attribute.attributeType)
            let count = Int(try cells[1].decode(Int64.self))
            // Stored forms that read as one value are one run of the fetch.
            if let last = result.indices.last, result[last].value == value {
                result[last].count += count
            } else {
                result.append(SectionCount(value: value, count: count))
            }
        }
        return result
    }
}
#endif
