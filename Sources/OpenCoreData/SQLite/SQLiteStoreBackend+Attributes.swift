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
            var statements: [Int: Statement] = [:]
            return try body { keys in
                var values: [Int64: [PropertyValue]] = [:]
                values.reserveCapacity(keys.count)
                var start = 0
                while start < keys.count {
                    let length = Self.listLengths.first { $0 >= keys.count - start } ?? Self.listLengths[Self.listLengths.count - 1]
                    let chunk = keys[start..<min(start + length, keys.count)]
                    start += chunk.count
                    let statement: Statement
                    if let prepared = statements[length] {
                        statement = prepared
                    } else {
                        statement = try db.cachedStatement(sql: prefix + Array(repeating: "?", count: length).joined(separator: ",") + ")")
                        statements[length] = statement
                    }
                    // Existential arguments: GRDB's generic initializer goes through a key path
                    // per value, which costs more than the lookup itself.
                    var arguments: [(any DatabaseValueConvertible)?] = []
                    arguments.reserveCapacity(length)
                    for key in chunk { arguments.append(key) }
                    while arguments.count < length { arguments.append(chunk.last) }
                    let rows = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
                    // Columns are read straight from the statement the cursor steps.
                    let columns = statement.sqliteStatement
                    while try rows.next() != nil {
                        guard case .int64(let key) = DatabaseValue(sqliteStatement: columns, index: 0).storage else { continue }
                        var rowValues: [PropertyValue] = []
                        rowValues.reserveCapacity(types.count)
                        for (index, type) in types.enumerated() {
                            rowValues.append(SQLiteValueCoding.propertyValue(DatabaseValue(sqliteStatement: columns, index: CInt(index + 1)), type: type))
                        }
                        values[key] = rowValues
                    }
                }
                return values
            }
        }
    }
}
