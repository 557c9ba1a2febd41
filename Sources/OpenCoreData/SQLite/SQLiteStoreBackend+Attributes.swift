import GRDB
import GRDBSQLite

/// Reading a few attributes of many rows by key, for sort-key comparisons: a fetched results
/// controller's searches make thousands of these reads for a large batch, so the keys are bound
/// and the columns read straight through SQLite's API, without GRDB's arguments, rows or cursors.
extension SQLiteStoreBackend {
    /// Statements take the keys in lists of these lengths (the last key repeated to fill one), so
    /// that a handful of prepared statements serve every read.
    private static let listLengths = [1, 4, 16, 64, 256, 500]

    func readingAttributes<T>(of entity: EntityDescription, _ attributes: [AttributeDescription],
                              _ body: (_ read: ([Int64]) throws -> [[PropertyValue]?], _ generation: () throws -> Int64,
                                        _ history: (HistoryStart) throws -> [HistoryTransactionRecord]) throws -> T) throws -> T {
        let loaded = try loaded
        guard let table = loaded.schema.table(for: entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(entity.entityName)", url: url)
        }
        let columns = (["\"_pk\""] + attributes.map { quoted(loaded.schema.columnName(of: $0)) }).joined(separator: ", ")
        let prefix = "SELECT \(columns) FROM \(quoted(table.name)) WHERE \"_pk\" IN ("
        let types = attributes.map(\.attributeType)
        return try reading("reading sort keys of \(entity.entityName)") { db in try Self.inReadTransaction(db) {
            var statements: [Int: Statement] = [:]
            return try body({ keys in
                var values = [[PropertyValue]?](repeating: nil, count: keys.count)
                // The keys' places, by key: rows come back in any order, each to its places.
                let places = keys.indices.sorted { keys[$0] < keys[$1] }
                var start = 0
                while start < keys.count {
                    let length = Self.listLengths.first { $0 >= keys.count - start } ?? Self.listLengths[Self.listLengths.count - 1]
                    let chunk = places[start..<min(start + length, keys.count)]
                    start += chunk.count
                    let statement: Statement
                    if let prepared = statements[length] {
                        statement = prepared
                    } else {
                        statement = try db.cachedStatement(sql: prefix + Array(repeating: "?", count: length).joined(separator: ",") + ")")
                        statements[length] = statement
                    }
                    try read(keys, at: chunk, listLength: length, with: statement, types: types, into: &values)
                }
                return values
            }, { try Self.generation(db) }, { start in try history(from: start, includingChanges: true, db) })
        } }
    }

    /// Runs `body` in one read transaction on `db`, or in the one `db` is already in: a read
    /// outside a transaction sees the store as of its own statement, and the reads of one call
    /// must see one state.
    private static func inReadTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard !db.isInsideTransaction else { return try body() }
        try db.beginTransaction(.deferred)
        do {
            let result = try body()
            try db.commit()
            return result
        } catch {
            try? db.rollback()
            throw error
        }
    }

    /// Runs `statement` for the keys at `places` (ascending by key) and puts each row's values
    /// at the places of its key.
    private func read(_ keys: [Int64], at places: ArraySlice<Int>, listLength: Int, with statement: Statement,
                      types: [AttributeType], into values: inout [[PropertyValue]?]) throws {
        let sqliteStatement = statement.sqliteStatement
        sqlite3_reset(sqliteStatement)
        var parameter: Int32 = 1
        for place in places {
            sqlite3_bind_int64(sqliteStatement, parameter, keys[place])
            parameter += 1
        }
        let last = keys[places[places.endIndex - 1]]
        while parameter <= listLength {
            sqlite3_bind_int64(sqliteStatement, parameter, last)
            parameter += 1
        }
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            let code = sqlite3_step(sqliteStatement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement)))
                // `reading` turns it into the store's error.
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
            let key = sqlite3_column_int64(sqliteStatement, 0)
            var rowValues: [PropertyValue] = []
            rowValues.reserveCapacity(types.count)
            for (index, type) in types.enumerated() {
                rowValues.append(Self.columnValue(sqliteStatement, Int32(index + 1), type: type))
            }
            // The first place of the key, then every place that asks for it again.
            var place = places.partitioningIndex { keys[$0] >= key }
            while place < places.endIndex, keys[places[place]] == key {
                values[places[place]] = rowValues
                place += 1
            }
        }
    }

    /// A column of the current row: integers and text straight from SQLite, other values through
    /// their stored forms.
    static func columnValue(_ statement: SQLiteStatement, _ column: Int32, type: AttributeType) -> PropertyValue {
        switch (sqlite3_column_type(statement, column), type) {
        case (SQLITE_INTEGER, .integer16AttributeType), (SQLITE_INTEGER, .integer32AttributeType),
             (SQLITE_INTEGER, .integer64AttributeType):
            return .integer(sqlite3_column_int64(statement, column))
        case (SQLITE_TEXT, .stringAttributeType):
            guard let text = sqlite3_column_text(statement, column) else { return .null }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            return SQLiteValueCoding.propertyValue(DatabaseValue(sqliteStatement: statement, index: column), type: type)
        }
    }
}
