import Foundation
import GRDB
import GRDBSQLite

/// Writes a save's transaction and changes into the history tables (see ``SQLiteHistorySchema``),
/// inside the save's own transaction, so that both land or neither does.
///
/// It makes no read of its own (the insert of the transaction finds its first change ID), and
/// writes one row for the transaction, one per updated or deleted object, and one per run of new
/// objects of one entity with consecutive keys: the new rows of a save get consecutive keys per
/// entity hierarchy, so a save of 100,000 new objects of one entity adds one change row. Values
/// are bound straight through SQLite's API into prepared statements, as ``SQLiteRowInserter``
/// binds rows.
struct SQLiteHistoryRecorder {
    let db: Database
    let loaded: SQLiteStoreBackend.Loaded

    /// Records transaction `number` with `info`, committed at `timestamp`: new rows (`inserted`,
    /// in runs of consecutive keys), then updates and deletions (permanent IDs), whose tombstones
    /// come from `preImages`.
    func record(number: Int64, info: HistoryTransactionInfo, inserted: [HistoryInsertRun],
                updated: [RowUpdate], deleted: [RowDeletion], preImages: [ManagedObjectID: RowSnapshot], timestamp: Date) throws {
        var changes = try begin(number: number, info: info, timestamp: timestamp)
        for row in HistoryChangeRow.rows(inserted: inserted, updated: updated, deleted: deleted, preImages: preImages) {
            let change = try changes.add(row.type, code: loaded.code(of: row.entity), key: row.key, count: row.count,
                                         properties: row.properties)
            try write(row.tombstone, of: change, into: SQLiteHistorySchema.tombstoneTable)
            try write(row.priorValues, of: change, into: SQLiteHistorySchema.priorValueTable)
        }
    }

    /// Writes values of change `change` by attribute name into a table of (change, attribute,
    /// value) rows.
    private func write(_ values: [String: PropertyValue], of change: Int64, into table: String) throws {
        guard !values.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "INSERT INTO \(quoted(table)) VALUES (?, ?, ?)")
        for (name, value) in values {
            try statement.execute(arguments: [change, name, SQLiteValueCoding.databaseValue(value)])
        }
    }
}

extension SQLiteHistoryRecorder {
    /// Records transaction `number`, whose changes are updates of `rows` (by entity code and
    /// primary key, in that order), each naming the properties `properties` gives for its entity
    /// code, joined by commas as ``record(number:info:inserted:updated:deleted:preImages:timestamp:)``
    /// joins them, and each with the values it overwrote (`prior`, those of the attributes
    /// `priorValueNames` names): a batch update written by one statement.
    func recordUpdates(number: Int64, info: HistoryTransactionInfo, rows: [SetBasedUpdateRow],
                       properties: (Int64) -> String, priorValueNames: [String], timestamp: Date) throws {
        var changes = try begin(number: number, info: info, timestamp: timestamp)
        let priorValues = try db.cachedStatement(sql: "INSERT INTO \(quoted(SQLiteHistorySchema.priorValueTable)) VALUES (?, ?, ?)")
        priorValues.setUncheckedArguments(StatementArguments([DatabaseValue.null, .null, .null]))
        let sqliteStatement = priorValues.sqliteStatement
        for row in rows {
            let change = try changes.add(.update, code: row.code, key: row.key, properties: properties(row.code))
            for (name, value) in zip(priorValueNames, row.prior) {
                sqlite3_reset(sqliteStatement)
                var result = sqlite3_bind_int64(sqliteStatement, 1, change)
                if result == SQLITE_OK { result = bindText(name, to: sqliteStatement, at: 2) }
                if result == SQLITE_OK { result = SQLiteValueCoding.databaseValue(value).bind(to: sqliteStatement, at: 3) }
                guard result == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: result), message: "cannot bind a prior value", sql: priorValues.sql)
                }
                try priorValues.execute()
            }
        }
    }

    /// Writes the transaction's row and returns the writer of its changes.
    // Built once: every save runs it.
    private static let insertTransactionSQL = """
        INSERT INTO \(quoted(SQLiteHistorySchema.transactionTable)) VALUES (?, ?, ?, ?, ?, ?, coalesce(
            (SELECT "_pk" + "count" FROM \(quoted(SQLiteHistorySchema.changeTable)) ORDER BY "_pk" DESC LIMIT 1),
            (SELECT CAST("value" AS INTEGER) FROM \(quoted(SQLiteSchema.metadataTable)) WHERE "key" = ?), 1))
        RETURNING "first_change"
        """

    fileprivate func begin(number: Int64, info: HistoryTransactionInfo, timestamp: Date) throws -> ChangeWriter {
        // The transaction's first change ID follows the last change recorded (or the one the
        // metadata keeps once every change was deleted): found by the insert itself.
        let insertTransaction = try db.cachedStatement(sql: Self.insertTransactionSQL)
        let arguments: StatementArguments = [number, timestamp.timeIntervalSinceReferenceDate, info.author, info.contextName,
                                             HistoryProcess.bundleID, HistoryProcess.processID, SQLiteHistorySchema.nextChangeKey]
        guard let firstChange = try Int64.fetchOne(insertTransaction, arguments: arguments) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the history transaction was not recorded", sql: insertTransaction.sql)
        }
        return try ChangeWriter(db, transaction: number, firstChange: firstChange)
    }
}

/// Writes change rows of one transaction with one prepared INSERT, numbering them as it goes.
private struct ChangeWriter {
    private let statement: Statement
    private let transaction: Int64
    private var next: Int64

    // Built once: every save runs it.
    private static let insertSQL = "INSERT INTO \(quoted(SQLiteHistorySchema.changeTable)) VALUES (?, ?, ?, ?, ?, ?, ?)"
    private static let unbound = StatementArguments(Array(repeating: DatabaseValue.null, count: 7))

    init(_ db: Database, transaction: Int64, firstChange: Int64) throws {
        statement = try db.cachedStatement(sql: Self.insertSQL)
        // Every parameter is bound before each execution (see SQLiteRowInserter).
        statement.setUncheckedArguments(Self.unbound)
        self.transaction = transaction
        next = firstChange
    }

    /// Writes a change of `count` objects with consecutive keys from `key`; returns its first ID.
    @discardableResult
    mutating func add(_ type: PersistentHistoryChangeType, code: Int64, key: Int64, count: Int64 = 1, properties: String? = nil) throws -> Int64 {
        let sqliteStatement = statement.sqliteStatement
        sqlite3_reset(sqliteStatement)
        let id = next
        // One call per parameter: a batch update records a change per row.
        var result = SQLITE_OK
        func bind(_ integer: Int64, at parameter: Int32) {
            if result == SQLITE_OK { result = sqlite3_bind_int64(sqliteStatement, parameter, integer) }
        }
        bind(id, at: 1)
        bind(transaction, at: 2)
        bind(Int64(type.rawValue), at: 3)
        bind(code, at: 4)
        bind(key, at: 5)
        bind(count, at: 6)
        if result == SQLITE_OK {
            result = properties.map { bindText($0, to: sqliteStatement, at: 7) } ?? sqlite3_bind_null(sqliteStatement, 7)
        }
        guard result == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: result), message: "cannot bind a history change", sql: statement.sql)
        }
        try statement.execute()
        next += count
        return id
    }
}
