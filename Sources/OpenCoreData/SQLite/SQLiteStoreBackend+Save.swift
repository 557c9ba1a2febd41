import GRDB
import GRDBSQLite

/// Writing: primary keys and saves, each in one immediate transaction.
extension SQLiteStoreBackend {
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        do {
            return try writer.writeWithoutTransaction { db in
                var keys: [Int64] = []
                try db.inTransaction(.immediate) {
                    keys = try allocate(db, root: entity.rootEntity, count: count)
                    return .commit
                }
                return keys
            }
        } catch {
            throw Self.storeError(error, url: url, doing: "reserving primary keys")
        }
    }

    func allocate(_ db: Database, root: EntityDescription, count: Int) throws -> [Int64] {
        // One statement, prepared once per connection: every save of new objects runs it.
        let last = try Int64.fetchOne(db.cachedStatement(sql: Self.reserveKeysSQL), arguments: [count, root.entityName]) ?? Int64(count)
        return ((last - Int64(count) + 1)...last).map { $0 }
    }

    private static let reserveKeysSQL = """
        UPDATE \(quoted(SQLiteSchema.primaryKeysTable)) SET "max_key" = "max_key" + ? WHERE "entity" = ? RETURNING "max_key"
        """

    func save(_ request: SaveRequest) throws -> SaveOutcome {
        try withExternalDataChanges { externalFiles in
            let outcome = try writeTransaction(doing: "saving") { db, loaded in
                var request = request
                try storeExternalData(of: &request, db, loaded: loaded, changes: externalFiles)
                let outcome = try write(request, db, loaded: loaded)
                guard case .committed = outcome else { return (outcome, commit: false) }
                return (outcome, commit: true)
            }
            guard case .committed = outcome else { return (outcome, committed: false) }
            return (outcome, committed: true)
        }
    }

    /// Runs `write` in one immediate transaction, committed if it says so and rolled back
    /// otherwise. Saves and batch requests write this way.
    func writeTransaction<T>(doing action: String, _ write: (Database, Loaded) throws -> (T, commit: Bool)) throws -> T {
        let loaded = try loaded
        var result: T?
        do {
            try writer.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let (value, commit) = try write(db, loaded)
                    result = value
                    return commit ? .commit : .rollback
                }
            }
        } catch {
            throw Self.storeError(error, url: url, doing: action)
        }
        guard let result else { throw PersistentStoreError(PersistentStoreError.sqliteError, "the transaction \(action) did not run", url: url) }
        return result
    }

    private func write(_ request: SaveRequest, _ db: Database, loaded: Loaded) throws -> SaveOutcome {
        let schema = loaded.schema
        try beginCountedWrites(db)
        let mapping = try IDMapping.allocating(for: request.inserted.map(\.objectID), storeIdentifier: loaded.identifier) { root, count in
            try allocate(db, root: root, count: count)
        }
        // Each new row's primary key, in the request's order; rows pointing to new objects need
        // lookups by temporary ID, which most saves never make.
        let keys = mapping.replacing(inOrder: request.inserted.map(\.objectID)).map(\.key)
        let lookup = request.referencesTemporaryIDs ? mapping.dictionary() : [:]
        // New rows take their permanent IDs as they are bound (see SQLiteRowInserter), rather
        // than in a copy of every row.
        var withoutInserts = request
        withoutInserts.inserted = []
        let save = withoutInserts.replacingIDs(lookup)
        // Read before anything is written; a conflict rolls the transaction back and drops them.
        let overwritten = save.updated.map(\.snapshot.objectID) + save.deleted.map(\.objectID)
        let preImages = Dictionary(try snapshots(for: overwritten, db, loaded: loaded).map { ($0.objectID, $0) },
                                   uniquingKeysWith: { first, _ in first })

        if let outcome = try checkConstraints(of: request, preImages: preImages, db, loaded: loaded) { return outcome }

        // Deletions first: a row of this save may take the constrained values of a deleted one.
        var conflicted: [ManagedObjectID] = []
        for deletion in save.deleted {
            guard let table = schema.table(for: deletion.objectID.entity) else { continue }
            try db.cachedStatement(sql: "DELETE FROM \(quoted(table.name)) WHERE \"_pk\" = ? AND \"_version\" = ?")
                .execute(arguments: [deletion.objectID.key, deletion.expectedVersion])
            if db.changesCount == 0 { conflicted.append(deletion.objectID) }
        }
        var updateStatements: [UpdateShape: Statement] = [:]
        for update in save.updated where try !self.update(update, db, loaded: loaded, statements: &updateStatements) {
            conflicted.append(update.snapshot.objectID)
        }
        if !conflicted.isEmpty {
            let current = Dictionary(try snapshots(for: conflicted, db, loaded: loaded).map { ($0.objectID, $0) },
                                     uniquingKeysWith: { first, _ in first })
            return .conflicts(conflicted.map { StoreConflict(objectID: $0, current: current[$0]) })
        }
        var inserters: [ObjectIdentifier: SQLiteRowInserter] = [:]
        // Rows of one entity usually come together: the last inserter serves them without a lookup.
        var current: (entity: EntityDescription, inserter: SQLiteRowInserter)?
        for (row, key) in zip(request.inserted, keys) {
            let entity = row.objectID.entity
            if current?.entity !== entity {
                if inserters[ObjectIdentifier(entity)] == nil, let table = schema.table(for: entity) {
                    inserters[ObjectIdentifier(entity)] = try SQLiteRowInserter(entity: entity, table: table, db, loaded: loaded)
                }
                current = inserters[ObjectIdentifier(entity)].map { (entity, $0) }
            }
            try current?.inserter.insert(row, key: key, permanentIDs: lookup)
        }
        for change in save.joinChanges {
            try writeLink(change, db, loaded: loaded)
        }
        for change in save.orderChanges {
            try writeOrder(change, db, loaded: loaded)
        }
        try deleteLinks(of: save.deleted.map(\.objectID), db, schema: schema)
        let generations = try finishCountedWrites(db)
        let token = try recordHistory(number: generations.after, db, loaded: loaded) { recorder, timestamp in
            try recorder.record(number: generations.after, info: request.transactionInfo,
                                inserted: HistoryInsertRun.runs(of: request.inserted, keys: keys),
                                updated: save.updated, deleted: save.deleted, preImages: preImages, timestamp: timestamp)
        }
        return .committed(permanentIDs: mapping, preImages: preImages, generations: generations, historyToken: token)
    }

    /// The entity and the slots an update writes: what its SQL text depends on.
    struct UpdateShape: Hashable {
        let entity: ObjectIdentifier
        let slots: [Int]
    }

    /// Writes the changed columns if the row still has the version the change is based on.
    /// `statements` keeps each shape's prepared UPDATE for the rest of the save; its text is
    /// built once per shape (see ``SQLiteStatementTexts/update(_:parameters:make:)``).
    private func update(_ update: RowUpdate, _ db: Database, loaded: Loaded, statements: inout [UpdateShape: Statement]) throws -> Bool {
        let id = update.snapshot.objectID
        guard let table = loaded.schema.table(for: id.entity) else { return true }
        let properties = update.changedSlots.map { id.entity.slots[$0] }
        let columnCount = properties.reduce(0) { $0 + loaded.schema.columnCount(of: $1) }
        let shape = UpdateShape(entity: ObjectIdentifier(id.entity), slots: update.changedSlots)
        let text = loaded.texts.update(shape, parameters: columnCount + 2) {
            let assignments = properties.flatMap { loaded.schema.columnNames(of: $0) }.map { "\(quoted($0)) = ?" }
                + ["\"_version\" = \"_version\" + 1"]
            return "UPDATE \(quoted(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \"_pk\" = ? AND \"_version\" = ?"
        }
        let statement: Statement
        if let prepared = statements[shape] {
            statement = prepared
        } else {
            statement = try db.cachedStatement(sql: text.sql)
            statements[shape] = statement
        }
        // Bound one by one: GRDB's arguments from an array of values cost more than the UPDATE.
        statement.setUncheckedArguments(text.unbound)
        let sqliteStatement = statement.sqliteStatement
        var parameter: Int32 = 1
        func bind(_ value: DatabaseValue) throws {
            let code = value.bind(to: sqliteStatement, at: parameter)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind parameter \(parameter)", sql: statement.sql)
            }
            parameter += 1
        }
        for (slot, property) in zip(update.changedSlots, properties) {
            let value = update.snapshot.value(at: slot)
            for column in 0..<loaded.schema.columnCount(of: property) {
                try bind(loaded.columnValue(column, of: property, storing: value))
            }
        }
        try bind(id.key.databaseValue)
        try bind(update.expectedVersion.databaseValue)
        try statement.execute()
        return db.changesCount > 0
    }

    private func writeLink(_ change: JoinChange, _ db: Database, loaded: Loaded) throws {
        guard let joinTable = loaded.schema.joinTable(for: change.relationship) else { return }
        if change.isInsertion {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(quoted(joinTable.name)) VALUES (?, ?, ?, ?)").execute(arguments: [
                change.source.key, loaded.code(of: change.source.entity),
                change.destination.key, loaded.code(of: change.destination.entity),
            ])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(quoted(joinTable.name)) WHERE \"source\" = ? AND \"target\" = ?")
                .execute(arguments: [change.source.key, change.destination.key])
        }
    }

    private func writeOrder(_ change: RelationshipOrderChange, _ db: Database, loaded: Loaded) throws {
        guard let table = loaded.schema.table(for: change.owner.entity) else { return }
        let column = quoted(loaded.schema.orderColumnName(of: change.relationship))
        try db.cachedStatement(sql: "UPDATE \(quoted(table.name)) SET \(column) = ? WHERE \"_pk\" = ?")
            .execute(arguments: [StoredRelationshipOrder.encode(change.destinations), change.owner.key])
    }

    /// Deleted rows take their join-table links with them.
    private func deleteLinks(of ids: [ManagedObjectID], _ db: Database, schema: SQLiteSchema) throws {
        guard !ids.isEmpty else { return }
        for joinTable in schema.joinTables.values {
            let owner = joinTable.owner
            for id in ids {
                if let source = owner.entity, id.entity.rootEntity === source.rootEntity {
                    try db.cachedStatement(sql: "DELETE FROM \(quoted(joinTable.name)) WHERE \"source\" = ?").execute(arguments: [id.key])
                }
                if let target = owner.destinationEntity, id.entity.rootEntity === target.rootEntity {
                    try db.cachedStatement(sql: "DELETE FROM \(quoted(joinTable.name)) WHERE \"target\" = ?").execute(arguments: [id.key])
                }
            }
        }
    }
}

extension SQLiteStoreBackend.Loaded {
    /// What the `column`th column storing `property` (see ``SQLiteSchema/columnNames(of:)``)
    /// holds for `value`: the value itself, or, in a to-one's second column, the destination's
    /// entity code.
    func columnValue(_ column: Int, of property: PropertyDescription, storing value: PropertyValue) -> DatabaseValue {
        guard column == 1 else { return SQLiteValueCoding.databaseValue(value) }
        return value.objectID.map { code(of: $0.entity).databaseValue } ?? .null
    }
}
