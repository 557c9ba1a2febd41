#if Postgres
package import Foundation
package import OpenCoreData
import PostgresNIO

/// The PostgreSQL store's persistent history (tables in ``PostgresHistorySchema``), with the
/// SQLite store's rules (Docs/PersistentHistory.md): recorded by each save in its transaction,
/// read back in one `REPEATABLE READ READ ONLY` transaction (so that the generation, the count of
/// transactions after a token and the rows agree), pruned by the retention rule.
///
/// Every transaction that deletes history or records a reader first locks the generation row,
/// which a save holds from taking its number to its commit: no save records while history is
/// deleted, so a deletion never takes the changes of a transaction committed meanwhile.
extension PostgresStoreBackend: PersistentHistoryBackend {
    /// Records a save's changes `rows` as transaction `number`, numbered from `firstChange`, after
    /// applying the retention rule when this backend's check is due (before recording, so that the
    /// new transaction is never pruned by its own commit). Called inside the save's transaction,
    /// after the generation row is locked. Nil, and nothing recorded, when the store records no
    /// history.
    func recordHistory(number: Int64, firstChange: Int64, rows: [HistoryChangeRow], info: HistoryTransactionInfo,
                       _ connection: PooledConnection, loaded: Loaded) throws -> PersistentHistoryToken? {
        guard historySettings.isRecording else { return nil }
        let now = Date()
        if historyPruneSchedule.isDue(now: now, settings: historySettings) { _ = try prune(connection, loaded: loaded, now: now) }
        try PostgresHistoryRecorder(connection: connection, loaded: loaded)
            .record(number: number, firstChange: firstChange, info: info, rows: rows, timestamp: now)
        return PersistentHistoryToken(storeIdentifier: loaded.identifier, transactionNumber: number)
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: try loaded.identifier, transactionNumber: try generation())
    }

    package func fetchHistory(from start: HistoryStart, includingChanges: Bool) throws -> [HistoryTransactionRecord] {
        try pool.withConnection("reading the persistent history", retryingIfLost: true) { connection in
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try history(from: start, includingChanges: includingChanges, connection)
            }
        }
    }

    /// ``fetchHistory(from:includingChanges:)`` in the `REPEATABLE READ` transaction `connection`
    /// is in.
    func history(from start: HistoryStart, includingChanges: Bool, _ connection: PooledConnection) throws -> [HistoryTransactionRecord] {
        let loaded = try loaded
        let generation = try connection.query(PostgresQuery(unsafeSQL:
            "SELECT \"value\" FROM \(loaded.schema.qualified(PostgresSchema.generationTable))")).first?.decode(Int64.self) ?? 0
        let current = PersistentHistoryToken(storeIdentifier: loaded.identifier, transactionNumber: generation)
        // A read-only store made before history has no tables until a writable load.
        let hasTables = try connection.query(
            "SELECT to_regclass(\(loaded.schema.qualified(PostgresHistorySchema.transactionTable))) IS NOT NULL")
            .first?.decode(Bool.self) ?? false
        let transactions = hasTables ? try readTransactions(from: start, connection, loaded: loaded) : []
        return try records(from: start, identifier: loaded.identifier, current: current,
                           transactions: transactions.map { ($0.record, $0.firstChange) },
                           includingChanges: includingChanges) { first in try readChanges(from: first, connection, loaded: loaded) }
    }

    package func deleteHistory(_ cutoff: HistoryCutoff) throws -> Int {
        try writingHistory("deleting persistent history") { connection, loaded in
            let firstKept: Int64
            switch cutoff {
            case .throughToken(let token): firstKept = token.transactionNumber + 1
            case .beforeTransaction(let number): firstKept = number
            case .beforeDate(let date): firstKept = try firstTransaction(since: date, connection, loaded: loaded) ?? Int64.max
            }
            return try deleteTransactions(before: firstKept, connection, loaded: loaded)
        }
    }

    package func pruneHistory(now: Date) throws -> Int {
        historyPruneSchedule.pruned(at: now)
        return try writingHistory("pruning persistent history") { connection, loaded in
            try prune(connection, loaded: loaded, now: now)
        }
    }

    package func setHistoryReader(_ reader: String, readUpTo token: PersistentHistoryToken, now: Date) throws {
        try writingHistory("recording a persistent history reader") { connection, loaded in
            _ = try connection.query("""
                INSERT INTO \(unescaped: loaded.schema.qualified(PostgresHistorySchema.readerTable)) VALUES (\(reader), \(token.transactionNumber), \
                \(now.timeIntervalSinceReferenceDate)) ON CONFLICT ("name") DO UPDATE SET "transaction" = EXCLUDED."transaction", "seen" = EXCLUDED."seen"
                """)
        }
    }

    package func removeHistoryReader(_ reader: String) throws {
        try writingHistory("removing a persistent history reader") { connection, loaded in
            _ = try connection.query(
                "DELETE FROM \(unescaped: loaded.schema.qualified(PostgresHistorySchema.readerTable)) WHERE \"name\" = \(reader)")
        }
    }

    // MARK: Reading

    private struct TransactionRow {
        let record: HistoryTransactionRecord
        let firstChange: Int64
    }

    private func readTransactions(from start: HistoryStart, _ connection: PooledConnection, loaded: Loaded) throws -> [TransactionRow] {
        let table = loaded.schema.qualified(PostgresHistorySchema.transactionTable)
        let select = "SELECT \"_pk\", \"timestamp\", \"author\", \"context_name\", \"bundle_id\", \"process_id\", \"first_change\" FROM \(table)"
        let rows: PostgresQueryResult
        switch start {
        case .beginning:
            rows = try connection.query(PostgresQuery(unsafeSQL: "\(select) ORDER BY \"_pk\""))
        case .after(let token):
            rows = try connection.query("\(unescaped: select) WHERE \"_pk\" > \(token.transactionNumber) ORDER BY \"_pk\"")
        case .afterDate(let date):
            rows = try connection.query("\(unescaped: select) WHERE \"timestamp\" > \(date.timeIntervalSinceReferenceDate) ORDER BY \"_pk\"")
        }
        return try rows.map { row in
            let (number, timestamp, author, contextName, bundleID, processID, firstChange) =
                try row.decode((Int64, Double, String?, String?, String, String, Int64).self)
            return TransactionRow(
                record: HistoryTransactionRecord(number: number, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                                                 author: author, contextName: contextName, bundleID: bundleID,
                                                 processID: processID, changes: []),
                firstChange: firstChange)
        }
    }

    /// The rows of a table of (change, attribute, value columns), by change ID, from `first` on.
    private func attributeValues(in table: String, from first: Int64, _ connection: PooledConnection,
                                 loaded: Loaded) throws -> [Int64: [(name: String, cells: [PostgresCell])]] {
        let values = PostgresHistorySchema.valueColumns.map { column in
            column.type == "numeric" ? "\(quoted(column.name))::text" : quoted(column.name)
        }.joined(separator: ", ")
        var result: [Int64: [(name: String, cells: [PostgresCell])]] = [:]
        let rows = try connection.query(
            "SELECT \"change\", \"attribute\", \(unescaped: values) FROM \(unescaped: loaded.schema.qualified(table)) WHERE \"change\" >= \(first)")
        for row in rows {
            let cells = Array(row)
            result[try cells[0].decode(Int64.self), default: []].append((try cells[1].decode(String.self), cells))
        }
        return result
    }

    /// The changes numbered from `first` on, by transaction number, with their tombstones and
    /// prior values, each value decoded by its attribute's type.
    private func readChanges(from first: Int64, _ connection: PooledConnection, loaded: Loaded) throws -> [Int64: [HistoryChangeRecord]] {
        let tombstones = try attributeValues(in: PostgresHistorySchema.tombstoneTable, from: first, connection, loaded: loaded)
        let priorValues = try attributeValues(in: PostgresHistorySchema.priorValueTable, from: first, connection, loaded: loaded)
        var decodingError: (any Error)?
        func decoded(_ values: [(name: String, cells: [PostgresCell])]?, of entity: EntityDescription) -> [String: PropertyValue] {
            var result: [String: PropertyValue] = [:]
            for (name, cells) in values ?? [] {
                guard let attribute = entity.property(named: name) as? AttributeDescription else { continue }
                do {
                    result[name] = try PostgresValueCoding.propertyValue(
                        cells[2 + PostgresHistorySchema.valueColumn(of: attribute.attributeType)], type: attribute.attributeType)
                } catch {
                    decodingError = error
                }
            }
            return result
        }
        var result: [Int64: [HistoryChangeRecord]] = [:]
        let rows = try connection.query("""
            SELECT "_pk", "transaction", "type", "entity", "object", "count", "properties"
            FROM \(unescaped: loaded.schema.qualified(PostgresHistorySchema.changeTable)) WHERE "_pk" >= \(first) ORDER BY "_pk"
            """)
        for row in rows {
            let (changeID, transaction, type, entityCode, firstKey, count, properties) =
                try row.decode((Int64, Int64, Int64, Int64, Int64, Int64, String?).self)
            StoredHistoryChange(changeID: changeID, transaction: transaction, type: type, entityCode: entityCode,
                                firstKey: firstKey, count: count, properties: properties)
                .expand(into: &result, entityByCode: loaded.entityByCode, storeIdentifier: loaded.identifier,
                        tombstone: { decoded(tombstones[$0], of: $1) }, priorValues: { decoded(priorValues[$0], of: $1) })
        }
        if let decodingError { throw decodingError }
        return result
    }

    // MARK: Deleting

    /// Runs `body` in a READ COMMITTED transaction that first locks the generation row.
    private func writingHistory<T>(_ action: String, _ body: (PooledConnection, Loaded) throws -> T) throws -> T {
        guard !description.isReadOnly else {
            throw PersistentStoreError(PersistentStoreError.readOnly, "the store is read-only; its history cannot be changed", url: errorURL)
        }
        let loaded = try loaded
        return try pool.withConnection(action) { connection in
            try connection.transaction("BEGIN ISOLATION LEVEL READ COMMITTED") {
                try connection.execute("SELECT 1 FROM \(loaded.schema.qualified(PostgresSchema.generationTable)) FOR UPDATE")
                return try body(connection, loaded)
            }
        }
    }

    /// The retention rule as of `now` (see ``PersistentHistoryRetention``).
    private func prune(_ connection: PooledConnection, loaded: Loaded, now: Date) throws -> Int {
        let bounds = historySettings.pruneBounds(now: now)
        let readers = loaded.schema.qualified(PostgresHistorySchema.readerTable)
        _ = try connection.query(
            "DELETE FROM \(unescaped: readers) WHERE \"seen\" < \(bounds.readersSeenSince.timeIntervalSinceReferenceDate)")
        var firstKept = try firstTransaction(since: bounds.windowStart, connection, loaded: loaded) ?? Int64.max
        if let slowest = try connection.query("SELECT min(\"transaction\") FROM \(unescaped: readers)").first?.decode(Int64?.self) {
            firstKept = min(firstKept, slowest + 1)
        }
        return try deleteTransactions(before: firstKept, connection, loaded: loaded)
    }

    /// The number of the first transaction, in commit order, whose timestamp is at or after `date`.
    private func firstTransaction(since date: Date, _ connection: PooledConnection, loaded: Loaded) throws -> Int64? {
        try connection.query("""
            SELECT "_pk" FROM \(unescaped: loaded.schema.qualified(PostgresHistorySchema.transactionTable)) \
            WHERE "timestamp" >= \(date.timeIntervalSinceReferenceDate) ORDER BY "_pk" LIMIT 1
            """).first?.decode(Int64.self)
    }

    /// Deletes the transactions numbered below `firstKept` with their changes, tombstones and
    /// prior values; returns how many transactions went. Change IDs never repeat: the
    /// generation row hands them out.
    private func deleteTransactions(before firstKept: Int64, _ connection: PooledConnection, loaded: Loaded) throws -> Int {
        let transactions = loaded.schema.qualified(PostgresHistorySchema.transactionTable)
        let keptChange = try connection.query(
            "SELECT \"first_change\" FROM \(unescaped: transactions) WHERE \"_pk\" >= \(firstKept) ORDER BY \"_pk\" LIMIT 1")
            .first?.decode(Int64.self)
        let deleted = try connection.query(
            "WITH d AS (DELETE FROM \(unescaped: transactions) WHERE \"_pk\" < \(firstKept) RETURNING 1) SELECT count(*) FROM d")
            .first?.decode(Int64.self) ?? 0
        guard deleted > 0 else { return 0 }
        for (table, column) in [(PostgresHistorySchema.changeTable, "_pk"), (PostgresHistorySchema.tombstoneTable, "change"),
                                (PostgresHistorySchema.priorValueTable, "change")] {
            let name = loaded.schema.qualified(table)
            if let keptChange {
                _ = try connection.query("DELETE FROM \(unescaped: name) WHERE \(unescaped: quoted(column)) < \(keptChange)")
            } else {
                try connection.execute("DELETE FROM \(name)")
            }
        }
        return Int(deleted)
    }
}
#endif
