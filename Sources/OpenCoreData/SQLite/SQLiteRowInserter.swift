import GRDB
import GRDBSQLite

/// Writes new rows of one entity during a save, with one prepared INSERT whose values are bound
/// one by one, straight from each row's snapshot. Building GRDB `StatementArguments` for each row
/// instead (an array of values, mapped through a key path) cost more than SQLite's own work for
/// the row.
struct SQLiteRowInserter {
    /// Where each column's value comes from, in the INSERT's column order.
    private enum Source {
        case primaryKey
        case constant(DatabaseValue)
        /// The `index`th column (0 or 1, see `columnValue`) storing the property at `slot`.
        case property(PropertyDescription, slot: Int, column: Int)
    }

    private let statement: Statement
    private let sources: [Source]
    private let loaded: SQLiteStoreBackend.Loaded

    init(entity: EntityDescription, table: SQLiteSchema.Table, _ db: Database, loaded: SQLiteStoreBackend.Loaded) throws {
        var names = ["_pk", "_entity", "_version"]
        var sources: [Source] = [.primaryKey, .constant(loaded.code(of: entity).databaseValue), .constant(1.databaseValue)]
        for property in entity.slots where property.isPersistent {
            let columns = loaded.schema.columnNames(of: property)
            names += columns
            sources += columns.indices.map { .property(property, slot: property.slot, column: $0) }
        }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        statement = try db.cachedStatement(
            sql: "INSERT INTO \(quoted(table.name)) (\(names.map(quoted).joined(separator: ", "))) VALUES (\(placeholders))")
        // Marks the arguments as set, so that `execute()` runs what `insert` binds without
        // checking them again; every column is bound before each row is written.
        statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: names.count)))
        self.sources = sources
        self.loaded = loaded
    }

    /// Inserts `row`, with temporary IDs (its own and those it points to) replaced by
    /// `permanentIDs`.
    func insert(_ row: RowSnapshot, permanentIDs: [ManagedObjectID: ManagedObjectID]) throws {
        let sqliteStatement = statement.sqliteStatement
        // The previous row's execution left the statement done; SQLite binds only after a reset.
        sqlite3_reset(sqliteStatement)
        for (index, source) in sources.enumerated() {
            let value: DatabaseValue
            switch source {
            case .primaryKey:
                value = (permanentIDs[row.objectID] ?? row.objectID).key.databaseValue
            case .constant(let constant):
                value = constant
            case .property(let property, let slot, let column):
                var stored = row.value(at: slot)
                if case .object(let id) = stored, let permanent = permanentIDs[id] { stored = .object(permanent) }
                value = loaded.columnValue(column, of: property, storing: stored)
            }
            let code = value.bind(to: sqliteStatement, at: Int32(index + 1))
            guard code == ResultCode.SQLITE_OK.rawValue else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind column \(index + 1)", sql: statement.sql)
            }
        }
        try statement.execute()
    }
}
