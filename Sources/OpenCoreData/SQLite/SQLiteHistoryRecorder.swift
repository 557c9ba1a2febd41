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
    /// with the primary keys the save gave them in `keys`), then updates and deletions (permanent
    /// IDs), whose tombstones come from `preImages`.
    func record(number: Int64, info: HistoryTransactionInfo, inserted: [RowSnapshot], keys: [Int64],
                updated: [RowUpdate], deleted: [RowDeletion], preImages: [ManagedObjectID: RowSnapshot], timestamp: Date) throws {
        // The transaction's first change ID follows the last change recorded (or the one the
        // metadata keeps once every change was deleted): found by the insert itself.
        let insertTransaction = try db.cachedStatement(sql: """
            INSERT INTO \(quoted(SQLiteHistorySchema.transactionTable)) VALUES (?, ?, ?, ?, ?, ?, coalesce(
                (SELECT "_pk" + "count" FROM \(quoted(SQLiteHistorySchema.changeTable)) ORDER BY "_pk" DESC LIMIT 1),
                (SELECT CAST("value" AS INTEGER) FROM \(quoted(SQLiteSchema.metadataTable)) WHERE "key" = ?), 1))
            RETURNING "first_change"
            """)
        let arguments: StatementArguments = [number, timestamp.timeIntervalSinceReferenceDate, info.author, info.contextName,
                                             HistoryProcess.bundleID, HistoryProcess.processID, SQLiteHistorySchema.nextChangeKey]
        guard let firstChange = try Int64.fetchOne(insertTransaction, arguments: arguments) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the history transaction was not recorded", sql: insertTransaction.sql)
        }
        var changes = try ChangeWriter(db, transaction: number, firstChange: firstChange)
        var run: (entity: EntityDescription, firstKey: Int64, count: Int64)?
        for (row, key) in zip(inserted, keys) {
            let entity = row.objectID.entity
            if let current = run, current.entity === entity, current.firstKey + current.count == key {
                run?.count += 1
                continue
            }
            if let current = run { try changes.add(.insert, code: loaded.code(of: current.entity), key: current.firstKey, count: current.count) }
            run = (entity, key, 1)
        }
        if let current = run { try changes.add(.insert, code: loaded.code(of: current.entity), key: current.firstKey, count: current.count) }
        for update in updated {
            let id = update.snapshot.objectID
            let change = try changes.add(.update, code: loaded.code(of: id.entity), key: id.key,
                                         properties: HistoryChanges.updatedProperties(of: update).joined(separator: ","))
            try write(HistoryChanges.priorValues(of: id, slots: update.changedSlots, preImage: preImages[id]),
                      of: change, into: SQLiteHistorySchema.priorValueTable)
        }
        for deletion in deleted {
            let id = deletion.objectID
            let change = try changes.add(.delete, code: loaded.code(of: id.entity), key: id.key)
            try write(HistoryChanges.tombstone(of: id, preImage: preImages[id]), of: change, into: SQLiteHistorySchema.tombstoneTable)
            try write(HistoryChanges.priorValues(of: id, slots: nil, preImage: preImages[id]),
                      of: change, into: SQLiteHistorySchema.priorValueTable)
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

/// Writes change rows of one transaction with one prepared INSERT, numbering them as it goes.
private struct ChangeWriter {
    private let statement: Statement
    private let transaction: Int64
    private var next: Int64

    init(_ db: Database, transaction: Int64, firstChange: Int64) throws {
        statement = try db.cachedStatement(sql: "INSERT INTO \(quoted(SQLiteHistorySchema.changeTable)) VALUES (?, ?, ?, ?, ?, ?, ?)")
        // Every parameter is bound before each execution (see SQLiteRowInserter).
        statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: 7)))
        self.transaction = transaction
        next = firstChange
    }

    /// Writes a change of `count` objects with consecutive keys from `key`; returns its first ID.
    @discardableResult
    mutating func add(_ type: PersistentHistoryChangeType, code: Int64, key: Int64, count: Int64 = 1, properties: String? = nil) throws -> Int64 {
        let sqliteStatement = statement.sqliteStatement
        sqlite3_reset(sqliteStatement)
        let id = next
        var result = SQLITE_OK
        for (index, integer) in [id, transaction, Int64(type.rawValue), code, key, count].enumerated() where result == SQLITE_OK {
            result = sqlite3_bind_int64(sqliteStatement, Int32(index + 1), integer)
        }
        if result == SQLITE_OK {
            result = properties.map { $0.bind(to: sqliteStatement, at: 7) } ?? sqlite3_bind_null(sqliteStatement, 7)
        }
        guard result == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: result), message: "cannot bind a history change", sql: statement.sql)
        }
        try statement.execute()
        next += count
        return id
    }
}
