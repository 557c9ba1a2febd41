import GRDB

/// Batch inserts: new rows bound straight from a ``StoreRowBatch`` into one prepared INSERT, in
/// one immediate transaction with the generation and the persistent history, as a save writes
/// new rows, without a snapshot or a temporary ID per row.
extension SQLiteStoreBackend {
    func insert(_ rows: StoreRowBatch, info: HistoryTransactionInfo) throws -> StoreRowBatchInsertion {
        try writeTransaction(doing: "inserting a batch of \(rows.entity.entityName)") { db, loaded in
            guard let table = loaded.schema.table(for: rows.entity) else {
                throw PersistentStoreError(PersistentStoreError.noStore, "the store has no table for \(rows.entity.entityName)", url: url)
            }
            try beginCountedWrites(db)
            let keys = try allocate(db, root: rows.entity.rootEntity, count: rows.count)
            let inserter = try SQLiteRowInserter(entity: rows.entity, table: table, db, loaded: loaded)
            for (index, key) in keys.enumerated() {
                try inserter.insert(rows.row(index), key: key, permanentIDs: [:])
            }
            let generations = try finishCountedWrites(db)
            let run = HistoryInsertRun(entity: rows.entity, firstKey: keys.first ?? 0, count: Int64(keys.count))
            let token = try recordHistory(number: generations.after, db, loaded: loaded) { recorder, timestamp in
                try recorder.record(number: generations.after, info: info, inserted: keys.isEmpty ? [] : [run],
                                    updated: [], deleted: [], preImages: [:], timestamp: timestamp)
            }
            let outcome = SaveOutcome.committed(permanentIDs: IDMapping(), preImages: [:], generations: generations, historyToken: token)
            return (StoreRowBatchInsertion(keys: keys, outcome: outcome), commit: true)
        }
    }
}
