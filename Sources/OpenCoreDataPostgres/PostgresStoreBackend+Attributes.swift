#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Reading a few attributes of many rows by key, for a fetched results controller's sort-key
/// comparisons: every read of one call sees one state of the store (a `REPEATABLE READ READ ONLY`
/// transaction on one connection), as the protocol promises, and each read is one statement
/// whatever the number of keys.
extension PostgresStoreBackend {
    package func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                                      _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T {
        let loaded = try loaded
        guard let table = loaded.schema.layout.table(for: entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(entity.entityName)", url: errorURL)
        }
        let columns = (["\"_pk\""] + attributes.map { attribute in
            let column = quoted(loaded.schema.layout.columnName(of: attribute))
            return attribute.attributeType == .decimalAttributeType ? "\(column)::text" : column
        }).joined(separator: ", ")
        let sql = "SELECT \(columns) FROM \(loaded.schema.qualified(table.name)) WHERE \"_pk\" = ANY($1::bigint[])"
        let types = attributes.map(\.attributeType)
        let generationQuery = PostgresQuery(unsafeSQL: "SELECT \"value\" FROM \(loaded.schema.qualified(PostgresSchema.generationTable))")
        return try pool.withConnection("reading sort keys of \(entity.entityName)", retryingIfLost: true) { connection in
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try body({ keys in
                    var query = PostgresQuery(unsafeSQL: sql)
                    query.binds.append(keys)
                    var valuesByKey: [Int64: [PropertyValue]] = [:]
                    for row in try connection.query(query) {
                        let cells = row.makeRandomAccess()
                        var values: [PropertyValue] = []
                        values.reserveCapacity(types.count)
                        for (index, type) in types.enumerated() {
                            values.append(try PostgresValueCoding.propertyValue(cells[index + 1], type: type))
                        }
                        valuesByKey[try cells[0].decode(Int64.self)] = values
                    }
                    return keys.map { valuesByKey[$0] }
                }, {
                    try connection.query(generationQuery).first?.decode(Int64.self) ?? 0
                }, { start in
                    try history(from: start, includingChanges: true, connection)
                })
            }
        }
    }
}
#endif
