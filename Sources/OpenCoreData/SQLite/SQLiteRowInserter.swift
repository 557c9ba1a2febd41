import GRDB
import GRDBSQLite

/// Writes new rows of one entity during a save, with one prepared INSERT whose values are bound
/// one by one, straight from each row's snapshot. Building GRDB `StatementArguments` for each row
/// instead (an array of values, mapped through a key path) cost more than SQLite's own work for
/// the row.
struct SQLiteRowInserter {
    /// Where each column's value comes from, in the INSERT's column order.
    fileprivate enum Source {
        case primaryKey
        case constant(DatabaseValue)
        /// The `index`th column (0 or 1, see `columnValue`) storing the property at `slot`.
        case property(PropertyDescription, slot: Int, column: Int)
    }

    /// An entity's INSERT and where its values come from: made once when the store loads (see
    /// ``SQLiteStatementTexts``).
    struct Plan: Sendable {
        let sql: String
        fileprivate let sources: [Source]
        /// NULL for every parameter (see `init(plan:_:loaded:)`).
        let unbound: StatementArguments

        init(entity: EntityDescription, table: SQLiteSchema.Table, schema: SQLiteSchema, code: Int64) {
            var names = ["_pk", "_entity", "_version"]
            var sources: [Source] = [.primaryKey, .constant(code.databaseValue), .constant(1.databaseValue)]
            for property in entity.slots where property.isPersistent {
                let columns = schema.columnNames(of: property)
                names += columns
                sources += columns.indices.map { .property(property, slot: property.slot, column: $0) }
            }
            let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
            sql = "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES (\(placeholders))"
            self.sources = sources
            unbound = StatementArguments(Array(repeating: DatabaseValue.null, count: names.count))
        }
    }

    private let statement: Statement
    private let sources: [Source]
    private let loaded: SQLiteStoreBackend.Loaded

    /// The inserter of `entity`'s rows, with the plan the store made when it loaded.
    init(entity: EntityDescription, table: SQLiteSchema.Table, _ db: Database, loaded: SQLiteStoreBackend.Loaded) throws {
        let plan = loaded.texts.inserts[ObjectIdentifier(entity)]
            ?? Plan(entity: entity, table: table, schema: loaded.schema, code: loaded.code(of: entity))
        try self.init(plan: plan, db, loaded: loaded)
    }

    init(plan: Plan, _ db: Database, loaded: SQLiteStoreBackend.Loaded) throws {
        statement = try db.cachedStatement(sql: plan.sql)
        // Marks the arguments as set, so that `execute()` runs what `insert` binds without
        // checking them again; every column is bound before each row is written.
        statement.setUncheckedArguments(plan.unbound)
        sources = plan.sources
        self.loaded = loaded
    }

    /// Inserts `row` under primary key `key`, with temporary IDs it points to replaced by
    /// `permanentIDs`.
    func insert(_ row: RowSnapshot, key: Int64, permanentIDs: [ManagedObjectID: ManagedObjectID]) throws {
        try insert(row.values[...], key: key, permanentIDs: permanentIDs)
    }

    /// Inserts the row whose values, by slot, are `values` (a slice of a longer array: slot 0 at
    /// its start index; slots past its end hold no value) under primary key `key`, with
    /// temporary IDs it points to replaced by `permanentIDs`.
    func insert(_ values: ArraySlice<PropertyValue>, key: Int64, permanentIDs: [ManagedObjectID: ManagedObjectID]) throws {
        let sqliteStatement = statement.sqliteStatement
        // The previous row's execution left the statement done; SQLite binds only after a reset.
        sqlite3_reset(sqliteStatement)
        for (index, source) in sources.enumerated() {
            let parameter = Int32(index + 1)
            let code: Int32
            switch source {
            case .primaryKey:
                code = sqlite3_bind_int64(sqliteStatement, parameter, key)
            case .constant(let constant):
                code = constant.bind(to: sqliteStatement, at: parameter)
            case .property(let property, let slot, let column):
                var stored = slot < values.count ? values[values.startIndex + slot] : .null
                if case .object(let id) = stored, let permanent = permanentIDs[id] { stored = .object(permanent) }
                code = column == 0 ? Self.bind(stored, to: sqliteStatement, at: parameter)
                    : loaded.columnValue(column, of: property, storing: stored).bind(to: sqliteStatement, at: parameter)
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind column \(index + 1)", sql: statement.sql)
            }
        }
        try statement.execute()
    }

    /// Binds a value in its stored form (see ``SQLiteValueCoding``): the common kinds straight
    /// through SQLite's API, where a GRDB `DatabaseValue` in between cost as much as the binding.
    private static func bind(_ value: PropertyValue, to statement: SQLiteStatement, at parameter: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(statement, parameter)
        case .integer(let integer):
            return sqlite3_bind_int64(statement, parameter, integer)
        case .double(let double):
            return sqlite3_bind_double(statement, parameter, double)
        case .boolean(let bool):
            return sqlite3_bind_int64(statement, parameter, bool ? 1 : 0)
        case .date(let date):
            return sqlite3_bind_double(statement, parameter, date.timeIntervalSinceReferenceDate)
        case .object(let id):
            return sqlite3_bind_int64(statement, parameter, id.key)
        case .string(let text):
            return bindText(text, to: statement, at: parameter)
        case .decimal, .data, .uuid, .uri:
            return SQLiteValueCoding.databaseValue(value).bind(to: statement, at: parameter)
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT`: it copies the bytes before the call returns.
let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Binds `text` to parameter `parameter` of `statement`, copied by SQLite.
func bindText(_ text: String, to statement: SQLiteStatement, at parameter: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { bytes in
        // A null pointer would bind NULL, not an empty string.
        guard let base = bytes.baseAddress else { return sqlite3_bind_text(statement, parameter, "", 0, transient) }
        return sqlite3_bind_text(statement, parameter, base, Int32(bytes.count), transient)
    }
}
