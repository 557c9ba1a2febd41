#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Batch inserts (Docs/PostgresStore.md, "Batch requests"): keys from the hierarchy's sequence
/// (one round trip) and one `INSERT … SELECT … FROM unnest($1::bigint[], $2::text[], …)`, each
/// column's values one array parameter (``PostgresArrayParameter``), so that 100,000 rows are one
/// statement; in one transaction with the generation, the history (the rows' runs of consecutive
/// keys, as a save records new rows) and the commit's notification, as a save writes them.
extension PostgresStoreBackend {
    package func insert(_ rows: StoreRowBatch, info: HistoryTransactionInfo) throws -> StoreRowBatchInsertion {
        let loaded = try loadedForWriting()
        guard let table = loaded.schema.layout.table(for: rows.entity) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(rows.entity.entityName)", url: errorURL)
        }
        // Text holding U+0000, which PostgreSQL cannot store, never gets here: the coordinator
        // refuses it in every batch request.
        let entity = rows.entity
        var keys: [Int64] = []
        let outcome = try writeTransaction("inserting a batch of \(entity.entityName)") { connection in
            keys = try allocateKeys(for: entity.rootEntity, count: rows.count, connection, loaded: loaded)
            try insert(rows, keys: keys, into: table, connection, loaded: loaded)
            let history = historySettings.isRecording
                ? HistoryChangeRow.rows(inserted: HistoryInsertRun.runs(of: entity, keys: keys), updated: [], deleted: [], preImages: [:])
                : []
            return try recordCommit(history: history, info: info, connection, loaded: loaded) { generations, token in
                .committed(permanentIDs: IDMapping(), preImages: [:], generations: generations, historyToken: token)
            }
        }
        return StoreRowBatchInsertion(keys: keys, outcome: outcome)
    }

    /// The one statement: `_pk` from `keys`, `_entity` and `_version` constants, and one array
    /// parameter per column of the entity's stored properties.
    private func insert(_ rows: StoreRowBatch, keys: [Int64], into table: SQLiteSchema.Table, _ connection: PooledConnection,
                        loaded: Loaded) throws {
        let entity = rows.entity
        let byName = Self.columnsByName(table)
        var names = ["_pk"]
        var binds = PostgresBindings()
        var primaryKeys = PostgresArrayParameter(.integer, capacity: keys.count)
        for key in keys { primaryKeys.append(key) }
        binds.append(primaryKeys)
        var selected = ["$1::bigint[]"]
        for property in entity.slots where property.isPersistent {
            for (position, name) in loaded.schema.layout.columnNames(of: property).enumerated() {
                guard let column = byName[name] else { continue }
                var values = PostgresArrayParameter(.init(column), capacity: rows.count)
                for index in 0..<rows.count {
                    let value = rows.values[rows.rowStart(index) + property.slot]
                    if position == 1 {
                        // A to-one's second column: the destination's entity code.
                        if let id = value.objectID { values.append(loaded.code(of: id.entity)) } else { values.appendNull() }
                    } else {
                        try values.append(value)
                    }
                }
                binds.append(values)
                names.append(name)
                selected.append("$\(binds.count)\(values.element.cast)")
            }
        }
        let columns = (names.prefix(1) + ["_entity", "_version"] + names.dropFirst()).map(quoted).joined(separator: ", ")
        let unnested = selected.joined(separator: ", ")
        let values = "u.c0, \(loaded.code(of: entity)), 1" + (1..<names.count).map { ", u.c\($0)" }.joined()
        let aliases = (0..<names.count).map { "c\($0)" }.joined(separator: ", ")
        _ = try connection.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(loaded.schema.qualified(table.name)) (\(columns)) \
            SELECT \(values) FROM unnest(\(unnested)) AS u(\(aliases))
            """, binds: binds))
    }
}
#endif
