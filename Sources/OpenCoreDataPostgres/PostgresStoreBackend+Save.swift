#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Saves: one READ COMMITTED transaction each, on one pooled connection, in the steps of
/// Docs/PostgresStore.md, "A save": keys from the sequences, the pre-images locked `FOR UPDATE`
/// (what SQLite's single writer gives for free), the version and constraint checks, deletes,
/// updates, inserts and links, then the generation row, last, so that it is locked only from
/// there to the commit and every commit takes the next number, then the history
/// (`+History`) and the commit's notification.
extension PostgresStoreBackend {
    /// How many times a save runs when PostgreSQL refuses it for a reason another run resolves:
    /// a unique index finding a row another writer committed after the constraint check
    /// (`23505`: the next run's check finds the row and reports the conflict), or a deadlock
    /// (`40P01`).
    static let saveAttempts = 3

    /// The most parameters one statement is given (PostgreSQL allows 65,535).
    static let parametersPerStatement = 30_000

    package func save(_ request: SaveRequest) throws -> SaveOutcome {
        let loaded = try loadedForWriting()
        // Before any connection: nothing is written when a value cannot be stored.
        try refuseNullCharacters(in: request)
        return try writeTransaction("saving") { connection in
            try write(request, connection, loaded: loaded)
        }
    }

    /// The loaded store, for a write.
    ///
    /// - Throws: ``PersistentStoreError/readOnly`` on a read-only store; as ``loaded`` when the
    ///   store is not loaded.
    func loadedForWriting() throws -> Loaded {
        let loaded = try loaded
        guard !description.isReadOnly else {
            throw PersistentStoreError(PersistentStoreError.readOnly, "the store is read-only; nothing was saved", url: errorURL)
        }
        return loaded
    }

    private func write(_ request: SaveRequest, _ connection: PooledConnection, loaded: Loaded) throws -> WrittenSave {
        let mapping = try IDMapping.allocating(for: request.inserted.map(\.objectID), storeIdentifier: loaded.identifier) { root, count in
            try allocateKeys(for: root, count: count, connection, loaded: loaded)
        }
        let save = request.replacingIDs(mapping.dictionary())
        let overwritten = save.updated.map(\.snapshot.objectID) + save.deleted.map(\.objectID)
        let preImages = Dictionary(try snapshots(for: overwritten, connection, loaded: loaded, lockingForUpdate: true)
            .map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })

        // The rows are locked: their versions cannot change before the commit. Rows that changed
        // since they were read come first (then constraints are not checked), as on SQLite.
        let expected = save.deleted.map { ($0.objectID, $0.expectedVersion) } + save.updated.map { ($0.snapshot.objectID, $0.expectedVersion) }
        let conflicts = expected.compactMap { id, version in
            preImages[id]?.version == version ? nil : StoreConflict(objectID: id, current: preImages[id])
        }
        if !conflicts.isEmpty { throw DeclinedSave(outcome: .conflicts(conflicts)) }
        // The constraint check takes the request as the context made it: conflicts name new rows
        // by their temporary IDs.
        if let outcome = try checkConstraints(of: request, connection, loaded: loaded) {
            throw DeclinedSave(outcome: outcome)
        }

        // Deletions first: a row of this save may take the constrained values of a deleted one.
        try delete(save.deleted.map(\.objectID), connection, loaded: loaded)
        try update(save.updated, connection, loaded: loaded)
        try insert(save.inserted, connection, loaded: loaded)
        try writeLinks(save.joinChanges, connection, loaded: loaded)
        try writeOrders(save.orderChanges, connection, loaded: loaded)
        try deleteLinks(of: save.deleted.map(\.objectID), connection, loaded: loaded)
        let history = historySettings.isRecording
            ? HistoryChangeRow.rows(inserted: HistoryInsertRun.runs(of: save.inserted, keys: save.inserted.map(\.objectID.key)),
                                    updated: save.updated, deleted: save.deleted, preImages: preImages)
            : []
        return try recordCommit(history: history, info: request.transactionInfo, connection, loaded: loaded) { generations, token in
            .committed(permanentIDs: mapping, preImages: preImages, generations: generations, historyToken: token)
        }
    }

    /// The end of every write, after its rows: the transaction's number from the generation row
    /// (locked from here to the commit, after the rows' locks), its history `history`, and the
    /// commit's notification.
    ///
    /// - Parameter outcome: The write's outcome, from its generations and history token.
    func recordCommit(history: [HistoryChangeRow], info: HistoryTransactionInfo, _ connection: PooledConnection, loaded: Loaded,
                      outcome: (CommitGenerations, PersistentHistoryToken?) -> SaveOutcome) throws -> WrittenSave {
        let (after, firstChange) = try advanceGeneration(changes: history.reduce(0) { $0 + $1.count }, connection, loaded: loaded)
        let token = try recordHistory(number: after, firstChange: firstChange, rows: history, info: info, connection, loaded: loaded)
        let transaction = try notifyCommit(generation: after, connection, loaded: loaded)
        return WrittenSave(outcome: outcome(CommitGenerations(before: after - 1, after: after), token), transaction: transaction)
    }

    /// Takes the save's transaction number (the next generation) and its first change ID, for
    /// `changes` change IDs, in one statement. Its row lock is held until the commit: committing
    /// saves take numbers in commit order, without gaps, and change IDs in the same order.
    private func advanceGeneration(changes: Int64, _ connection: PooledConnection, loaded: Loaded) throws -> (Int64, Int64) {
        let rows = try connection.query("""
            UPDATE \(unescaped: loaded.schema.qualified(PostgresSchema.generationTable))
            SET "value" = "value" + 1, "next_change" = "next_change" + \(changes)
            RETURNING "value", "next_change" - \(changes)
            """)
        guard let row = rows.first else {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the store's generation row is missing", url: errorURL)
        }
        return try row.decode((Int64, Int64).self)
    }

    /// Tells the processes listening on the store's channel that generation `generation`
    /// committed (PostgreSQL delivers it at the commit, and only if the transaction commits), and
    /// returns the transaction's ID, by which the commit-in-doubt path asks for its outcome.
    private func notifyCommit(generation: Int64, _ connection: PooledConnection, loaded: Loaded) throws -> String {
        let rows = try connection.query("""
            SELECT pg_current_xact_id()::text, \
            pg_notify(\(PostgresHistorySchema.channel(storeIdentifier: loaded.identifier)), \(String(generation)))::text
            """)
        guard let row = rows.first else { return "" }
        let (transaction, _) = try row.decode((String, String?).self)
        return transaction
    }

    /// Keys from the hierarchy's sequence, on the save's connection (`nextval` is not rolled
    /// back, so a save that fails leaves a gap, which nothing minds).
    func allocateKeys(for root: EntityDescription, count: Int, _ connection: PooledConnection, loaded: Loaded) throws -> [Int64] {
        guard let table = loaded.schema.layout.table(for: root) else { return [] }
        let sequence = loaded.schema.qualified(loaded.schema.sequenceName(of: table))
        // One array rather than a row per key: 100,000 keys in one cell.
        let rows = try connection.query("""
            SELECT array_agg("key" ORDER BY "key") FROM (SELECT nextval(\(sequence)::regclass) AS "key" FROM generate_series(1, \(count))) k
            """)
        return try rows.first?.decode([Int64]?.self) ?? []
    }

    // MARK: Rows

    private func delete(_ ids: [ManagedObjectID], _ connection: PooledConnection, loaded: Loaded) throws {
        for group in Dictionary(grouping: ids, by: { ObjectIdentifier($0.entity.rootEntity) }).values {
            guard let table = loaded.schema.layout.table(for: group[0].entity) else { continue }
            var query = PostgresQuery(unsafeSQL: "DELETE FROM \(loaded.schema.qualified(table.name)) WHERE \"_pk\" = ANY($1::bigint[])")
            query.binds.append(group.map(\.key))
            _ = try connection.query(query)
        }
    }

    /// New rows, with one multi-row `INSERT … VALUES` per entity and chunk of rows, every value a
    /// parameter cast to its column's type.
    ///
    /// A multi-row `VALUES` rather than `unnest` of one array per column (the design's plan):
    /// postgres-nio encodes arrays of non-optional values only, and nearly every column has NULLs;
    /// an encoder of arrays with NULL elements comes with batch inserts (step 7), where one
    /// statement for 100,000 rows matters. Here a statement takes up to
    /// ``parametersPerStatement`` values.
    private func insert(_ rows: [RowSnapshot], _ connection: PooledConnection, loaded: Loaded) throws {
        var entities: [EntityDescription] = []
        var rowsByEntity: [ObjectIdentifier: [RowSnapshot]] = [:]
        for row in rows {
            let entity = row.objectID.entity
            if rowsByEntity[ObjectIdentifier(entity)] == nil { entities.append(entity) }
            rowsByEntity[ObjectIdentifier(entity), default: []].append(row)
        }
        for entity in entities {
            guard let table = loaded.schema.layout.table(for: entity), let entityRows = rowsByEntity[ObjectIdentifier(entity)] else { continue }
            let byName = Self.columnsByName(table)
            var columns: [(column: SQLiteSchema.Column, position: Int, slot: Int)] = []
            for property in entity.slots where property.isPersistent {
                for (position, name) in loaded.schema.layout.columnNames(of: property).enumerated() {
                    if let column = byName[name] { columns.append((column, position, property.slot)) }
                }
            }
            let names = (["_pk", "_entity", "_version"] + columns.map(\.column.name)).map(quoted).joined(separator: ", ")
            let prefix = "INSERT INTO \(loaded.schema.qualified(table.name)) (\(names)) VALUES "
            let code = loaded.code(of: entity)
            let rowsPerStatement = max(1, Self.parametersPerStatement / (columns.count + 1))
            for start in stride(from: 0, to: entityRows.count, by: rowsPerStatement) {
                var binds = PostgresBindings()
                var tuples: [String] = []
                for row in entityRows[start..<min(start + rowsPerStatement, entityRows.count)] {
                    binds.append(row.objectID.key)
                    var placeholders = ["$\(binds.count)::bigint", "\(code)", "1"]
                    for (column, position, slot) in columns {
                        try Self.append(column: position, of: row.value(at: slot), to: &binds, loaded: loaded)
                        placeholders.append(PostgresValueCoding.placeholder(binds.count, for: column))
                    }
                    tuples.append("(\(placeholders.joined(separator: ", ")))")
                }
                _ = try connection.query(PostgresQuery(unsafeSQL: prefix + tuples.joined(separator: ", "), binds: binds))
            }
        }
    }

    /// The table's columns by name.
    static func columnsByName(_ table: SQLiteSchema.Table) -> [String: SQLiteSchema.Column] {
        Dictionary(table.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What the `column`th column storing a property (see `SQLiteSchema.columnNames(of:)`)
    /// holds for `value`: the value, or in a to-one's second column the destination's entity code.
    static func append(column: Int, of value: PropertyValue, to binds: inout PostgresBindings, loaded: Loaded) throws {
        guard column == 1 else { return try PostgresValueCoding.append(value, to: &binds) }
        if let id = value.objectID { binds.append(loaded.code(of: id.entity)) } else { binds.appendNull() }
    }

    // MARK: Links

    /// Join-table links, in runs of one table and kind, each run one statement.
    private func writeLinks(_ changes: [JoinChange], _ connection: PooledConnection, loaded: Loaded) throws {
        var start = changes.startIndex
        while start < changes.endIndex {
            let first = changes[start]
            var end = start + 1
            while end < changes.endIndex, changes[end].relationship === first.relationship, changes[end].isInsertion == first.isInsertion {
                end += 1
            }
            defer { start = end }
            guard let joinTable = loaded.schema.layout.joinTable(for: first.relationship) else { continue }
            let run = changes[start..<end]
            let name = loaded.schema.qualified(joinTable.name)
            var query: PostgresQuery
            if first.isInsertion {
                query = PostgresQuery(unsafeSQL: "INSERT INTO \(name) (\"source\", \"source_entity\", \"target\", \"target_entity\") "
                    + "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) ON CONFLICT DO NOTHING")
                query.binds.append(run.map(\.source.key))
                query.binds.append(run.map { loaded.code(of: $0.source.entity) })
                query.binds.append(run.map(\.destination.key))
                query.binds.append(run.map { loaded.code(of: $0.destination.entity) })
            } else {
                query = PostgresQuery(unsafeSQL: "DELETE FROM \(name) WHERE (\"source\", \"target\") IN "
                    + "(SELECT * FROM unnest($1::bigint[], $2::bigint[]))")
                query.binds.append(run.map(\.source.key))
                query.binds.append(run.map(\.destination.key))
            }
            _ = try connection.query(query)
        }
    }

    /// Ordered relationships' orders, one statement per relationship (see `StoredRelationshipOrder`).
    private func writeOrders(_ changes: [RelationshipOrderChange], _ connection: PooledConnection, loaded: Loaded) throws {
        for run in Dictionary(grouping: changes, by: { ObjectIdentifier($0.relationship) }).values {
            guard let relationship = run.first?.relationship, let entity = relationship.entity,
                  let table = loaded.schema.layout.table(for: entity) else { continue }
            let column = quoted(loaded.schema.layout.orderColumnName(of: relationship))
            var query = PostgresQuery(unsafeSQL: "UPDATE \(loaded.schema.qualified(table.name)) AS t SET \(column) = u.o "
                + "FROM unnest($1::bigint[], $2::bytea[]) AS u(k, o) WHERE t.\"_pk\" = u.k")
            query.binds.append(run.map(\.owner.key))
            query.binds.append(run.map { ByteBuffer(bytes: StoredRelationshipOrder.encode($0.destinations)) })
            _ = try connection.query(query)
        }
    }

    /// Deleted rows take their join-table links with them.
    private func deleteLinks(of ids: [ManagedObjectID], _ connection: PooledConnection, loaded: Loaded) throws {
        guard !ids.isEmpty else { return }
        for joinTable in loaded.schema.joinTables {
            let owner = joinTable.owner
            for (column, end) in [("source", owner.entity), ("target", owner.destinationEntity)] {
                guard let root = end?.rootEntity else { continue }
                let keys = ids.filter { $0.entity.rootEntity === root }.map(\.key)
                guard !keys.isEmpty else { continue }
                var query = PostgresQuery(unsafeSQL: "DELETE FROM \(loaded.schema.qualified(joinTable.name)) WHERE \"\(column)\" = ANY($1::bigint[])")
                query.binds.append(keys)
                _ = try connection.query(query)
            }
        }
    }

    // MARK: Values PostgreSQL cannot store

    /// PostgreSQL's text cannot hold U+0000 (`null character not permitted`): such a save is
    /// refused before anything is written, naming the object and the attribute.
    ///
    /// - Throws: ``PersistentStoreError/saveFailed``.
    private func refuseNullCharacters(in request: SaveRequest) throws {
        func check(_ row: RowSnapshot, slots: [Int]) throws {
            for slot in slots {
                guard case .string(let text) = row.value(at: slot), text.utf8.contains(0) else { continue }
                let attribute = row.objectID.entity.slots[slot]
                throw PersistentStoreError(
                    PersistentStoreError.saveFailed,
                    "\(row.objectID.entity.entityName).\(attribute.name) of \(row.objectID) holds the character U+0000, which "
                        + "PostgreSQL cannot store in text; nothing was saved",
                    url: errorURL)
            }
        }
        for row in request.inserted {
            try check(row, slots: Array(row.values.indices))
        }
        for update in request.updated {
            try check(update.snapshot, slots: update.changedSlots)
        }
    }
}
#endif
