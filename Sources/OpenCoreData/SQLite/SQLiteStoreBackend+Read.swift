import GRDB

/// Reading rows: faults by key, relationship contents, fetches and counts.
extension SQLiteStoreBackend {
    /// SQLite allows at most 32766 parameters per statement; stay well below.
    private static let keysPerStatement = 500

    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        let loaded = try loaded
        let schema = loaded.schema
        let byTable = Dictionary(grouping: ids) { ObjectIdentifier($0.entity.rootEntity) }
        return try reading("reading objects") { db in
            var result: [RowSnapshot] = []
            for group in byTable.values {
                guard let table = schema.table(for: group[0].entity) else { continue }
                let wanted = Set(group)
                for start in stride(from: 0, to: group.count, by: Self.keysPerStatement) {
                    let chunk = group[start..<min(start + Self.keysPerStatement, group.count)]
                    let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                    let sql = "SELECT \(selectList(table)) FROM \(quoted(table.name)) WHERE \"_pk\" IN (\(placeholders))"
                    let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(chunk.map(\.key)))
                    while let row = try rows.next() {
                        if let snapshot = try decode(row, loaded: loaded), wanted.contains(snapshot.objectID) {
                            result.append(snapshot)
                        }
                    }
                }
            }
            return result
        }
    }

    func relatedObjectIDs(of id: ManagedObjectID, through relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        let loaded = try loaded
        let schema = loaded.schema
        let sql: String
        switch relationship.storage {
        case .foreignKey:
            return []
        case .inverseForeignKey(let inverse):
            guard let inverseEntity = inverse.entity, let table = schema.table(for: inverseEntity) else { return [] }
            sql = "SELECT \"_pk\", \"_entity\" FROM \(quoted(table.name)) WHERE \(quoted(schema.columnName(of: inverse))) = ? ORDER BY \"_pk\""
        case .joinTable(let owner):
            guard let joinTable = schema.joinTable(for: owner) else { return [] }
            sql = owner === relationship
                ? "SELECT \"target\", \"target_entity\" FROM \(quoted(joinTable.name)) WHERE \"source\" = ? ORDER BY \"target\""
                : "SELECT \"source\", \"source_entity\" FROM \(quoted(joinTable.name)) WHERE \"target\" = ? ORDER BY \"source\""
        }
        return try reading("reading a relationship") { db in
            try Row.fetchAll(db, sql: sql, arguments: [id.key]).compactMap { row in
                let key: Int64 = try row.decode(atIndex: 0)
                return loaded.entityByCode[try row.decode(atIndex: 1)].map {
                    ManagedObjectID(entity: $0, storeIdentifier: loaded.identifier, primaryKey: key)
                }
            }
        }
    }

    func fetch(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        let loaded = try loaded
        let schema = loaded.schema
        guard let table = schema.table(for: fetch.entity) else { return [] }
        var sql = "SELECT \(selectList(table)) FROM \(quoted(table.name))"
        var arguments = StatementArguments()
        appendEntityFilter(fetch, loaded: loaded, to: &sql, arguments: &arguments)
        let order = fetch.sortKeys.map { "\(quoted(schema.columnName(of: $0.attribute)))\($0.ascending ? "" : " DESC")" }
        sql += " ORDER BY " + (order + ["\"_pk\""]).joined(separator: ", ")
        if fetch.limit > 0 || fetch.offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [fetch.limit > 0 ? fetch.limit : -1, fetch.offset]
        }
        let query = sql
        let values = arguments
        return try reading("fetching \(fetch.entity.entityName)") { db in
            var result: [RowSnapshot] = []
            let rows = try Row.fetchCursor(db, sql: query, arguments: values)
            while let row = try rows.next() {
                if let snapshot = try decode(row, loaded: loaded) { result.append(snapshot) }
            }
            return result
        }
    }

    func count(_ fetch: StoreFetch) throws -> Int {
        let loaded = try loaded
        guard let table = loaded.schema.table(for: fetch.entity) else { return 0 }
        var sql = "SELECT COUNT(*) FROM \(quoted(table.name))"
        var arguments = StatementArguments()
        appendEntityFilter(fetch, loaded: loaded, to: &sql, arguments: &arguments)
        let query = sql
        let values = arguments
        let total = try reading("counting \(fetch.entity.entityName)") { db in
            try Int.fetchOne(db, sql: query, arguments: values) ?? 0
        }
        let remaining = max(0, total - fetch.offset)
        return fetch.limit > 0 ? min(fetch.limit, remaining) : remaining
    }

    // MARK: Helpers

    /// Restricts a hierarchy's table to the fetched entities, unless they are all of it.
    private func appendEntityFilter(_ fetch: StoreFetch, loaded: Loaded, to sql: inout String, arguments: inout StatementArguments) {
        let entities = fetch.entities
        guard entities.count != fetch.entity.rootEntity.selfAndDescendants.count else { return }
        sql += " WHERE \"_entity\" IN (\(Array(repeating: "?", count: entities.count).joined(separator: ",")))"
        arguments += StatementArguments(entities.map { loaded.code(of: $0) })
    }

    func selectList(_ table: SQLiteSchema.Table) -> String {
        (["\"_pk\"", "\"_entity\"", "\"_version\""] + table.columns.map { quoted($0.name) }).joined(separator: ", ")
    }

    /// A row of `selectList` as a snapshot of its concrete entity, or nil for a row of an entity
    /// the model does not have.
    ///
    /// - Throws: `RowDecodingError` when a bookkeeping column holds NULL or text (a row edited
    ///   by another program); ``storeError(_:url:doing:)`` reports it as a damaged store.
    func decode(_ row: Row, loaded: Loaded) throws -> RowSnapshot? {
        let code: Int64 = try row.decode(atIndex: 1)
        guard let entity = loaded.entityByCode[code],
              let columns = loaded.schema.columnIndexBySlot[ObjectIdentifier(entity)],
              let codeColumns = loaded.schema.entityCodeColumnBySlot[ObjectIdentifier(entity)] else { return nil }
        let id = ManagedObjectID(entity: entity, storeIdentifier: loaded.identifier, primaryKey: try row.decode(atIndex: 0))
        var values: [PropertyValue] = []
        values.reserveCapacity(entity.slots.count)
        for property in entity.slots {
            guard let column = columns[property.slot] else {
                values.append(.null)
                continue
            }
            let stored: DatabaseValue = row[3 + column]
            if let attribute = property as? AttributeDescription {
                values.append(SQLiteValueCoding.propertyValue(stored, type: attribute.attributeType))
            } else if case .int64(let key) = stored.storage, let codeColumn = codeColumns[property.slot],
                      let destination = loaded.entityByCode[try row.decode(atIndex: 3 + codeColumn)] {
                values.append(.object(ManagedObjectID(entity: destination, storeIdentifier: loaded.identifier, primaryKey: key)))
            } else {
                values.append(.null)
            }
        }
        return RowSnapshot(objectID: id, values: values, version: try row.decode(atIndex: 2))
    }

    func reading<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.unsafeReentrantRead(body)
        } catch {
            throw Self.storeError(error, url: url, doing: action)
        }
    }
}
