import Foundation
import GRDB

/// The SQLite store's persistent history (tables in ``SQLiteHistorySchema``): recorded by each
/// save in its own transaction, read back in one read transaction, pruned by the retention rule.
extension SQLiteStoreBackend: PersistentHistoryBackend {
    /// Records a commit as transaction `number` (the generation it just reached) with `record`,
    /// given a recorder and the commit's timestamp, after applying the retention rule when this
    /// connection's check is due (so that the new transaction is never pruned by its own commit).
    /// Called inside the commit's transaction. Nil, and nothing recorded, when the store records
    /// no history.
    func recordHistory(number: Int64, _ db: Database, loaded: Loaded,
                       _ record: (SQLiteHistoryRecorder, Date) throws -> Void) throws -> PersistentHistoryToken? {
        guard historySettings.isRecording else { return nil }
        let now = Date()
        if historyPruneSchedule.isDue(now: now, settings: historySettings) { _ = try prune(db, now: now) }
        try record(SQLiteHistoryRecorder(db: db, loaded: loaded), now)
        return PersistentHistoryToken(storeIdentifier: loaded.identifier, transactionNumber: number)
    }

    func currentHistoryToken() throws -> PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: try loaded.identifier, transactionNumber: try generation())
    }

    func fetchHistory(from start: HistoryStart, includingChanges: Bool) throws -> [HistoryTransactionRecord] {
        do {
            // One read transaction: the generation, the count of transactions and the rows read
            // must agree, whatever commits meanwhile.
            return try writer.read { db in try history(from: start, includingChanges: includingChanges, db) }
        } catch let error as PersistentHistoryError {
            throw error
        } catch {
            throw Self.storeError(error, url: url, doing: "reading the persistent history")
        }
    }

    /// ``fetchHistory(from:includingChanges:)`` in the read transaction `db` is in.
    func history(from start: HistoryStart, includingChanges: Bool, _ db: Database) throws -> [HistoryTransactionRecord] {
        let loaded = try loaded
        let current = PersistentHistoryToken(storeIdentifier: loaded.identifier, transactionNumber: try Self.generation(db))
        let hasTables = try db.tableExists(SQLiteHistorySchema.transactionTable)
        var transactions: [(record: HistoryTransactionRecord, firstChange: Int64)] = []
        if hasTables {
            transactions = try readTransactions(from: start, db)
        }
        return try records(from: start, identifier: loaded.identifier, current: current, transactions: transactions,
                           includingChanges: includingChanges) { first in try readChanges(from: first, db, loaded: loaded) }
    }

    func deleteHistory(_ cutoff: HistoryCutoff) throws -> Int {
        try writingHistory("deleting persistent history") { db in
            let firstKept: Int64
            switch cutoff {
            case .throughToken(let token): firstKept = token.transactionNumber + 1
            case .beforeTransaction(let number): firstKept = number
            case .beforeDate(let date): firstKept = try firstTransaction(since: date, db) ?? Int64.max
            }
            return try deleteTransactions(before: firstKept, db)
        }
    }

    func pruneHistory(now: Date) throws -> Int {
        historyPruneSchedule.pruned(at: now)
        return try writingHistory("pruning persistent history") { db in try prune(db, now: now) }
    }

    func setHistoryReader(_ reader: String, readUpTo token: PersistentHistoryToken, now: Date) throws {
        try writingHistory("recording a persistent history reader") { db in
            try db.execute(sql: """
                INSERT INTO \(quoted(SQLiteHistorySchema.readerTable)) VALUES (?, ?, ?)
                ON CONFLICT ("name") DO UPDATE SET "transaction" = excluded."transaction", "seen" = excluded."seen"
                """, arguments: [reader, token.transactionNumber, now.timeIntervalSinceReferenceDate])
        }
    }

    func removeHistoryReader(_ reader: String) throws {
        try writingHistory("removing a persistent history reader") { db in
            try db.execute(sql: "DELETE FROM \(quoted(SQLiteHistorySchema.readerTable)) WHERE \"name\" = ?", arguments: [reader])
        }
    }

    // MARK: Reading

    private func readTransactions(from start: HistoryStart, _ db: Database) throws -> [(record: HistoryTransactionRecord, firstChange: Int64)] {
        let select = "SELECT \"_pk\", \"timestamp\", \"author\", \"context_name\", \"bundle_id\", \"process_id\", \"first_change\" FROM \(quoted(SQLiteHistorySchema.transactionTable))"
        let rows: [Row]
        switch start {
        case .beginning:
            rows = try Row.fetchAll(db, sql: "\(select) ORDER BY \"_pk\"")
        case .after(let token):
            rows = try Row.fetchAll(db, sql: "\(select) WHERE \"_pk\" > ? ORDER BY \"_pk\"", arguments: [token.transactionNumber])
        case .afterDate(let date):
            rows = try Row.fetchAll(db, sql: "\(select) WHERE \"timestamp\" > ? ORDER BY \"_pk\"", arguments: [date.timeIntervalSinceReferenceDate])
        }
        return try rows.map { row in
            let record = HistoryTransactionRecord(
                number: try row.decode(atIndex: 0), timestamp: Date(timeIntervalSinceReferenceDate: try row.decode(atIndex: 1)),
                author: try row.decode(atIndex: 2), contextName: try row.decode(atIndex: 3),
                bundleID: try row.decode(atIndex: 4), processID: try row.decode(atIndex: 5), changes: [])
            return (record, try row.decode(atIndex: 6))
        }
    }

    /// Values by change ID and attribute name, from a table of (change, attribute, value) rows.
    private func attributeValues(in table: String, from first: Int64, _ db: Database) throws -> [Int64: [(name: String, value: DatabaseValue)]] {
        var values: [Int64: [(name: String, value: DatabaseValue)]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT \"change\", \"attribute\", \"value\" FROM \(quoted(table)) WHERE \"change\" >= ?",
                                       arguments: [first])
        while let row = try rows.next() {
            values[try row.decode(atIndex: 0), default: []].append((try row.decode(atIndex: 1), row[2]))
        }
        return values
    }

    /// The changes numbered from `first` on, by transaction number, with their tombstones and
    /// prior values.
    private func readChanges(from first: Int64, _ db: Database, loaded: Loaded) throws -> [Int64: [HistoryChangeRecord]] {
        let tombstones = try attributeValues(in: SQLiteHistorySchema.tombstoneTable, from: first, db)
        // A store made before prior values were recorded lacks their table until a writable
        // coordinator loads it; read-only, its changes have none.
        let priorValues = try db.tableExists(SQLiteHistorySchema.priorValueTable)
            ? try attributeValues(in: SQLiteHistorySchema.priorValueTable, from: first, db) : [:]
        func decoded(_ values: [(name: String, value: DatabaseValue)]?, of entity: EntityDescription) -> [String: PropertyValue] {
            var result: [String: PropertyValue] = [:]
            for (name, value) in values ?? [] {
                guard let attribute = entity.property(named: name) as? AttributeDescription else { continue }
                result[name] = SQLiteValueCoding.propertyValue(value, type: attribute.attributeType)
            }
            return result
        }
        var result: [Int64: [HistoryChangeRecord]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT "_pk", "transaction", "type", "entity", "object", "count", "properties"
            FROM \(quoted(SQLiteHistorySchema.changeTable)) WHERE "_pk" >= ? ORDER BY "_pk"
            """, arguments: [first])
        while let row = try rows.next() {
            let change = StoredHistoryChange(
                changeID: try row.decode(atIndex: 0), transaction: try row.decode(atIndex: 1), type: try row.decode(atIndex: 2),
                entityCode: try row.decode(atIndex: 3), firstKey: try row.decode(atIndex: 4), count: try row.decode(atIndex: 5),
                properties: try row.decode(atIndex: 6))
            change.expand(into: &result, entityByCode: loaded.entityByCode, storeIdentifier: loaded.identifier,
                          tombstone: { decoded(tombstones[$0], of: $1) }, priorValues: { decoded(priorValues[$0], of: $1) })
        }
        return result
    }

    // MARK: Deleting

    /// Runs `body` in an immediate write transaction on a store that has the history tables.
    private func writingHistory<T: Sendable>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        guard !description.isReadOnly else {
            throw PersistentStoreError(PersistentStoreError.readOnly, "the store is read-only; its history cannot be changed", url: url)
        }
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    try SQLiteHistorySchema.create(db)
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw PersistentStoreError(PersistentStoreError.sqliteError, "\(action) did not complete", url: url) }
                return result
            }
        } catch {
            throw Self.storeError(error, url: url, doing: action)
        }
    }

    /// The retention rule as of `now` (see ``PersistentHistoryRetention``).
    private func prune(_ db: Database, now: Date) throws -> Int {
        let bounds = historySettings.pruneBounds(now: now)
        try db.execute(sql: "DELETE FROM \(quoted(SQLiteHistorySchema.readerTable)) WHERE \"seen\" < ?",
                       arguments: [bounds.readersSeenSince.timeIntervalSinceReferenceDate])
        var firstKept = try firstTransaction(since: bounds.windowStart, db) ?? Int64.max
        if let slowest = try Int64.fetchOne(db, sql: "SELECT min(\"transaction\") FROM \(quoted(SQLiteHistorySchema.readerTable))") {
            firstKept = min(firstKept, slowest + 1)
        }
        return try deleteTransactions(before: firstKept, db)
    }

    /// The number of the first transaction, in commit order, whose timestamp is at or after
    /// `date`; the scan stops there, so it reads the transactions that are about to go.
    private func firstTransaction(since date: Date, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: """
            SELECT "_pk" FROM \(quoted(SQLiteHistorySchema.transactionTable)) WHERE "timestamp" >= ? ORDER BY "_pk" LIMIT 1
            """, arguments: [date.timeIntervalSinceReferenceDate])
    }

    /// Deletes the transactions numbered below `firstKept` with their changes and tombstones;
    /// returns how many transactions went.
    private func deleteTransactions(before firstKept: Int64, _ db: Database) throws -> Int {
        let transactions = quoted(SQLiteHistorySchema.transactionTable)
        let changes = quoted(SQLiteHistorySchema.changeTable)
        let tombstones = quoted(SQLiteHistorySchema.tombstoneTable)
        let priorValues = quoted(SQLiteHistorySchema.priorValueTable)
        let keptChange = try Int64.fetchOne(db, sql: "SELECT \"first_change\" FROM \(transactions) WHERE \"_pk\" >= ? ORDER BY \"_pk\" LIMIT 1",
                                            arguments: [firstKept])
        try db.execute(sql: "DELETE FROM \(transactions) WHERE \"_pk\" < ?", arguments: [firstKept])
        let deleted = db.changesCount
        guard deleted > 0 else { return 0 }
        if let keptChange {
            try db.execute(sql: "DELETE FROM \(changes) WHERE \"_pk\" < ?", arguments: [keptChange])
            try db.execute(sql: "DELETE FROM \(tombstones) WHERE \"change\" < ?", arguments: [keptChange])
            try db.execute(sql: "DELETE FROM \(priorValues) WHERE \"change\" < ?", arguments: [keptChange])
        } else {
            // Every transaction went: keep the next change ID, so that IDs never repeat.
            if let next = try Int64.fetchOne(db, sql: "SELECT \"_pk\" + \"count\" FROM \(changes) ORDER BY \"_pk\" DESC LIMIT 1") {
                try db.execute(sql: "INSERT OR REPLACE INTO \(quoted(SQLiteSchema.metadataTable)) VALUES (?, ?)",
                               arguments: [SQLiteHistorySchema.nextChangeKey, String(next)])
            }
            try db.execute(sql: "DELETE FROM \(changes)")
            try db.execute(sql: "DELETE FROM \(tombstones)")
            try db.execute(sql: "DELETE FROM \(priorValues)")
        }
        return deleted
    }
}
