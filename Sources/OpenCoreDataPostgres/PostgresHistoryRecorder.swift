#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Writes a save's transaction and changes into the history tables
/// (``PostgresHistorySchema``), in the save's own transaction, so that both land or neither does.
///
/// The rows are the SQLite store's (``HistoryChangeRow``: one per updated or deleted object, one
/// per run of new objects with consecutive keys, then tombstones and prior values), numbered from
/// the first change ID the generation row handed out; each table's rows go in multi-row inserts
/// of at most ``PostgresStoreBackend/parametersPerStatement`` values.
struct PostgresHistoryRecorder {
    let connection: PooledConnection
    let loaded: PostgresStoreBackend.Loaded

    /// Records transaction `number` with `info`, committed at `timestamp`, whose changes `rows`
    /// are numbered from `firstChange`.
    func record(number: Int64, firstChange: Int64, info: HistoryTransactionInfo, rows: [HistoryChangeRow], timestamp: Date) throws {
        var transaction = PostgresBindings()
        transaction.append(number)
        transaction.append(timestamp.timeIntervalSinceReferenceDate)
        Self.append(info.author, to: &transaction)
        Self.append(info.contextName, to: &transaction)
        transaction.append(HistoryProcess.bundleID)
        transaction.append(HistoryProcess.processID)
        transaction.append(firstChange)
        _ = try connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(loaded.schema.qualified(PostgresHistorySchema.transactionTable)) \
            VALUES ($1::bigint, $2::double precision, $3::text, $4::text, $5::text, $6::text, $7::bigint)
            """, binds: transaction))

        var changeIDs: [Int64] = []
        var next = firstChange
        for row in rows {
            changeIDs.append(next)
            next += row.count
        }
        try insertRows(into: PostgresHistorySchema.changeTable, casts: Array(repeating: "bigint", count: 6) + ["text"],
                       count: rows.count) { index, binds in
            let row = rows[index]
            binds.append(changeIDs[index])
            binds.append(number)
            binds.append(Int64(row.type.rawValue))
            binds.append(loaded.code(of: row.entity))
            binds.append(row.key)
            binds.append(row.count)
            Self.append(row.properties, to: &binds)
        }
        try writeValues(zip(changeIDs, rows.map(\.tombstone)), into: PostgresHistorySchema.tombstoneTable)
        try writeValues(zip(changeIDs, rows.map(\.priorValues)), into: PostgresHistorySchema.priorValueTable)
    }

    /// Writes (change, attribute, value) rows, each value in the column of its kind.
    private func writeValues(_ values: Zip2Sequence<[Int64], [[String: PropertyValue]]>, into table: String) throws {
        let flat = values.flatMap { change, byName in byName.map { (change, $0.key, $0.value) } }
        let casts = ["bigint", "text"] + PostgresHistorySchema.valueColumns.map(\.type)
        try insertRows(into: table, casts: casts, count: flat.count) { index, binds in
            let (change, name, value) = flat[index]
            binds.append(change)
            binds.append(name)
            let column = PostgresHistorySchema.valueColumn(of: value)
            for position in PostgresHistorySchema.valueColumns.indices {
                if position == column { try PostgresValueCoding.append(value, to: &binds) } else { binds.appendNull() }
            }
        }
    }

    /// Inserts `count` rows into `table` with multi-row `VALUES`, each row's values appended by
    /// `append` (as many as `casts`, each parameter cast to its column's type).
    private func insertRows(into table: String, casts: [String], count: Int,
                            _ append: (Int, inout PostgresBindings) throws -> Void) throws {
        let rowsPerStatement = max(1, PostgresStoreBackend.parametersPerStatement / casts.count)
        for start in stride(from: 0, to: count, by: rowsPerStatement) {
            var binds = PostgresBindings()
            var tuples: [String] = []
            for index in start..<min(start + rowsPerStatement, count) {
                let first = binds.count
                try append(index, &binds)
                tuples.append("(" + casts.enumerated().map { "$\(first + $0.offset + 1)::\($0.element)" }.joined(separator: ", ") + ")")
            }
            _ = try connection.query(PostgresQuery(
                unsafeSQL: "INSERT INTO \(loaded.schema.qualified(table)) VALUES \(tuples.joined(separator: ", "))", binds: binds))
        }
    }

    private static func append(_ text: String?, to binds: inout PostgresBindings) {
        if let text { binds.append(text) } else { binds.appendNull() }
    }
}
#endif
