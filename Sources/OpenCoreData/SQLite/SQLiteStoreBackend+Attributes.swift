import GRDB

/// Reading a few attributes of many rows by key, for sort-key comparisons.
extension SQLiteStoreBackend {
    /// Statements take the keys in lists of these lengths (the last key repeated to fill one), so
    /// that a handful of prepared statements serve every read.
    private static let listLengths = [1, 4, 16, 64, 256, 500]

    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [Int64: [PropertyValue]]) throws -> T) throws -> T {
        let loaded = try loaded
        guard let table = loaded.schema.table(for: entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(entity.entityName)", url: url)
        }
        let columns = (["\"_pk\""] + attributes.map { quoted(loaded.schema.columnName(of: $0)) }).joined(separator: ", ")
        let prefix = "SELECT \(columns) FROM \(quoted(table.name)) WHERE \"_pk\" IN ("
        let types = attributes.map(\.attributeType)
        return try reading("reading sort keys of \(entity.entityName)") { db in
            try body { keys in
                var values: [Int64: [PropertyValue]] = [:]
                var start = 0
                while start < keys.count {
                    let length = Self.listLengths.first { $0 >= keys.count - start } ?? Self.listLengths[Self.listLengths.count - 1]
                    let chunk = keys[start..<min(start + length, keys.count)]
                    start += chunk.count
                    var arguments = chunk.map(\.databaseValue)
                    arguments += Array(repeating: chunk[chunk.endIndex - 1].databaseValue, count: length - chunk.count)
                    let statement = try db.cachedStatement(sql: prefix + Array(repeating: "?", count: length).joined(separator: ",") + ")")
                    let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
                    while let row = try rows.next() {
                        let key: Int64 = try row.decode(atIndex: 0)
                        values[key] = types.enumerated().map { index, type in
                            SQLiteValueCoding.propertyValue(row[index + 1], type: type)
                        }
                    }
                }
                return values
            }
        }
    }
}
