import Foundation
import GRDB

/// Reading rows: faults by key, relationship contents, fetches and counts.
extension SQLiteStoreBackend {
    /// SQLite allows at most 32766 parameters per statement; stay well below (a power of two:
    /// see ``SQLiteStatementTexts/keyLookup(in:count:)``).
    static let keysPerStatement = SQLiteStatementTexts.maximumKeys

    func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        let loaded = try loaded
        return try reading("reading objects") { db in try snapshots(for: ids, db, loaded: loaded) }
    }

    /// The rows of these objects as `db` sees them, one `SELECT … IN` per table and chunk of
    /// keys (see ``SQLiteStatementTexts/keyLookup(in:count:)``); rows that no longer exist are
    /// left out. Saves use it inside their transaction.
    func snapshots(for ids: [ManagedObjectID], _ db: Database, loaded: Loaded) throws -> [RowSnapshot] {
        var result: [RowSnapshot] = []
        for group in Dictionary(grouping: ids, by: { ObjectIdentifier($0.entity.rootEntity) }).values {
            guard let table = loaded.schema.table(for: group[0].entity) else { continue }
            let wanted = Set(group)
            let keys = group.map { $0.key }
            for start in stride(from: 0, to: keys.count, by: Self.keysPerStatement) {
                let chunk = keys[start..<min(start + Self.keysPerStatement, keys.count)]
                let lookup = loaded.texts.keyLookup(in: table, count: chunk.count)
                let statement = try db.cachedStatement(sql: lookup.sql)
                try lookup.bind(chunk, to: statement)
                let rows = try Row.fetchCursor(statement)
                while let row = try rows.next() {
                    if let snapshot = try decode(row, of: statement, loaded: loaded), wanted.contains(snapshot.objectID) {
                        result.append(snapshot)
                    }
                }
            }
        }
        return result
    }

    func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws -> [ManagedObjectID: [ManagedObjectID]] {
        let loaded = try loaded
        let schema = loaded.schema
        let select: String
        switch relationship.storage {
        case .foreignKey:
            return [:]
        case .inverseForeignKey(let inverse):
            guard let inverseEntity = inverse.entity, let table = schema.table(for: inverseEntity) else { return [:] }
            let column = quoted(schema.columnName(of: inverse))
            select = "SELECT \(column), \"_pk\", \"_entity\" FROM \(quoted(table.name)) WHERE \(column) IN"
        case .joinTable(let owner):
            guard let joinTable = schema.joinTable(for: owner) else { return [:] }
            select = owner === relationship
                ? "SELECT \"source\", \"target\", \"target_entity\" FROM \(quoted(joinTable.name)) WHERE \"source\" IN"
                : "SELECT \"target\", \"source\", \"source_entity\" FROM \(quoted(joinTable.name)) WHERE \"target\" IN"
        }
        let owners = Dictionary(ids.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return try reading("reading a relationship") { db in
            var result: [ManagedObjectID: [ManagedObjectID]] = [:]
            for id in ids { result[id] = [] }
            for start in stride(from: 0, to: ids.count, by: Self.keysPerStatement) {
                let chunk = ids[start..<min(start + Self.keysPerStatement, ids.count)]
                let sql = "\(select) (\(Array(repeating: "?", count: chunk.count).joined(separator: ","))) ORDER BY 1, 2"
                let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(chunk.map(\.key)))
                while let row = try rows.next() {
                    let ownerKey: Int64 = try row.decode(atIndex: 0)
                    let key: Int64 = try row.decode(atIndex: 1)
                    guard let owner = owners[ownerKey], let entity = loaded.entityByCode[try row.decode(atIndex: 2)] else { continue }
                    result[owner, default: []].append(ManagedObjectID(entity: entity, store: loaded.tag, primaryKey: key))
                }
            }
            if relationship.isOrdered { try arrangeInStoredOrder(&result, of: owners, through: relationship, schema: schema, db) }
            return result
        }
    }

    /// Puts each owner's destinations in the order its row keeps (see `StoredRelationshipOrder`).
    private func arrangeInStoredOrder(_ result: inout [ManagedObjectID: [ManagedObjectID]], of owners: [Int64: ManagedObjectID],
                                      through relationship: RelationshipDescription, schema: SQLiteSchema, _ db: Database) throws {
        guard let entity = relationship.entity, let table = schema.table(for: entity) else { return }
        let column = quoted(schema.orderColumnName(of: relationship))
        let keys = Array(owners.keys)
        for start in stride(from: 0, to: keys.count, by: Self.keysPerStatement) {
            let chunk = keys[start..<min(start + Self.keysPerStatement, keys.count)]
            let sql = "SELECT \"_pk\", \(column) FROM \(quoted(table.name)) WHERE \"_pk\" IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(Array(chunk)))
            while let row = try rows.next() {
                let ownerKey: Int64 = try row.decode(atIndex: 0)
                let order: Data? = try row.decode(atIndex: 1)
                guard let owner = owners[ownerKey], let order else { continue }
                result[owner] = StoredRelationshipOrder.arrange(result[owner] ?? [], by: StoredRelationshipOrder.decode(order))
            }
        }
    }

    func fetch(_ fetch: StoreFetch) throws -> StoreFetchResult {
        let loaded = try loaded
        return try reading("fetching \(fetch.entity.entityName)") { db -> StoreFetchResult? in
            let select = try preparedSelect(for: fetch, loaded: loaded, counting: false, db)
            let identifiersOnly = fetch.identifiersOnly && select.residual == nil
            var ids: [ManagedObjectID] = []
            var rows: [RowSnapshot] = []
            let cursor = try Row.fetchCursor(select.statement, arguments: select.arguments)
            let singleEntity = Self.hasSingleEntity(fetch) ? fetch.entity : nil
            while let row = try cursor.next() {
                if identifiersOnly {
                    guard let entity = try singleEntity ?? loaded.entityByCode[try row.decode(atIndex: 1)] else { continue }
                    ids.append(ManagedObjectID(entity: entity, store: loaded.tag, primaryKey: try row.decode(atIndex: 0)))
                } else if let projection = select.projection {
                    // A row only a whole read decodes (a damaged one): the fetch runs again whole.
                    guard let snapshot = decodeProjected(select.statement, plan: projection, loaded: loaded) else { return nil }
                    rows.append(snapshot)
                } else if let snapshot = try decode(row, of: select.statement, loaded: loaded) {
                    rows.append(snapshot)
                }
            }
            return identifiersOnly ? StoreFetchResult(ids: ids, rows: [], residual: nil)
                                   : StoreFetchResult(rows: rows, residual: select.residual)
        } ?? self.fetch(fetch.readingEverySlot)
    }

    func primaryKeys(_ fetch: StoreFetch) throws -> [Int64]? {
        guard fetch.identifiersOnly, Self.hasSingleEntity(fetch) else { return nil }
        let loaded = try loaded
        return try reading("fetching \(fetch.entity.entityName)") { db in
            let select = try preparedSelect(for: fetch, loaded: loaded, counting: false, db)
            guard select.residual == nil else { return nil }
            return try Int64.fetchAll(select.statement, arguments: select.arguments)
        }
    }

    func count(_ fetch: StoreFetch) throws -> Int? {
        let loaded = try loaded
        let total = try reading("counting \(fetch.entity.entityName)") { db -> Int? in
            let select = try preparedSelect(for: fetch, loaded: loaded, counting: true, db)
            guard select.residual == nil else { return nil }
            return try Int.fetchOne(select.statement, arguments: select.arguments) ?? 0
        }
        guard let total else { return nil }
        let remaining = max(0, total - fetch.offset)
        return fetch.limit > 0 ? min(fetch.limit, remaining) : remaining
    }

    /// The prepared SELECT for a fetch. When SQLite refuses the compiled predicate as beyond its
    /// limits (``SQLiteLimits``), the SELECT is prepared again with the whole
    /// predicate left to memory: slower, never a different answer.
    private func preparedSelect(for fetch: StoreFetch, loaded: Loaded, counting: Bool, _ db: Database) throws
        -> (statement: Statement, arguments: StatementArguments, residual: ResolvedPredicate?, projection: SQLiteRowDecodePlan?) {
        var select = try selectStatement(for: fetch, loaded: loaded, counting: counting, compilingPredicate: true)
        let statement: Statement
        do {
            statement = try loaded.texts.select(select.fragment.sql, in: db)
        } catch where SQLiteLimits.isExceeded(by: error) {
            log.debug("the predicate is left to memory: \(error)", metadata: ["entity": "\(fetch.entity.entityName)"])
            select = try selectStatement(for: fetch, loaded: loaded, counting: counting, compilingPredicate: false)
            statement = try loaded.texts.select(select.fragment.sql, in: db)
        }
        return (statement, SQLiteValueCoding.statementArguments(select.fragment.arguments), select.residual, select.projection)
    }

    /// The SELECT for a fetch: the predicate's conditions that compile to SQL go in the WHERE
    /// clause, the others come back as the residual (and then the window is not applied). A
    /// fetch of a few slots of one entity (``StoreFetch/slotsToRead``) selects only their columns
    /// and comes with the plan that decodes them, unless a residual needs whole rows.
    private func selectStatement(for fetch: StoreFetch, loaded: Loaded, counting: Bool, compilingPredicate: Bool) throws
        -> (fragment: SQLFragment, residual: ResolvedPredicate?, projection: SQLiteRowDecodePlan?) {
        let filter = try self.filter(for: fetch, loaded: loaded, compilingPredicate: compilingPredicate)
        let residual = filter.residual
        let columns: String
        var projection: SQLiteRowDecodePlan?
        if counting {
            columns = "COUNT(*)"
        } else if fetch.identifiersOnly && residual == nil {
            // Without subentities every row's entity is the fetched one: leaving `_entity` out
            // lets an index on the sort keys answer the query alone (about ten times faster on
            // large tables than looking each row up).
            columns = Self.hasSingleEntity(fetch) ? "t0.\"_pk\"" : "t0.\"_pk\", t0.\"_entity\""
        } else if residual == nil, Self.hasSingleEntity(fetch), let slots = fetch.slotsToRead,
                  let projected = SQLiteRowDecodePlan.projection(of: fetch.entity, slots: slots, schema: loaded.schema) {
            projection = projected.plan
            columns = Self.selectList(filter.table, alias: "t0", columns: projected.columns)
        } else {
            columns = Self.selectList(filter.table, alias: "t0")
        }
        var order: [String] = []
        if !counting {
            guard let terms = filter.compiler.orderTerms(fetch.sortKeys, in: filter.query.root) else {
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "the store cannot sort \(fetch.entity.entityName) by \(fetch.sortKeys.map(\.path.text))",
                                        entityName: fetch.entity.entityName)
            }
            order = terms + ["t0.\"_pk\""]
        }
        // Read the joins last: compiling the order terms may add some.
        var sql = "SELECT \(columns) FROM \(quoted(filter.table.name)) t0\(filter.query.root.joinSQL)\(filter.whereClause.sql)"
        var arguments = filter.whereClause.arguments
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if !counting, residual == nil, fetch.limit > 0 || fetch.offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [.integer(Int64(fetch.limit > 0 ? fetch.limit : -1)), .integer(Int64(fetch.offset))]
        }
        return (SQLFragment(sql, arguments), residual, projection)
    }

    // MARK: Helpers

    /// Whether a fetch's rows can only be of its entity: the entity has no subentities.
    static func hasSingleEntity(_ fetch: StoreFetch) -> Bool {
        fetch.entity.rootEntity.selfAndDescendants.count == 1
    }

    /// The bookkeeping columns, then the table's columns: all of them, or those at `columns`
    /// (indexes into the table's columns).
    static func selectList(_ table: SQLiteSchema.Table, alias: String? = nil, columns: [Int]? = nil) -> String {
        let prefix = alias.map { "\($0)." } ?? ""
        let chosen = columns.map { $0.map { table.columns[$0] } } ?? table.columns
        return (["\"_pk\"", "\"_entity\"", "\"_version\""] + chosen.map { quoted($0.name) })
            .map { prefix + $0 }.joined(separator: ", ")
    }

    /// A row of `selectList` as a snapshot of its concrete entity, or nil for a row of an entity
    /// the model does not have.
    ///
    /// - Throws: `RowDecodingError` when a bookkeeping column holds NULL or text (a row edited
    ///   by another program); ``storeError(_:url:doing:)`` reports it as a damaged store. A
    ///   ``PersistentStoreError`` when a value kept in a file cannot be read.
    func decode(_ row: Row, loaded: Loaded) throws -> RowSnapshot? {
        guard let plan = loaded.decodePlans[try row.decode(atIndex: 1)] else { return nil }
        let id = ManagedObjectID(entity: plan.entity, store: loaded.tag, primaryKey: try row.decode(atIndex: 0))
        var values: [PropertyValue] = []
        values.reserveCapacity(plan.steps.count)
        for step in plan.steps {
            switch step {
            case .none:
                values.append(.null)
            case .attribute(let column, let type, let attribute, let mayBeInFile):
                let stored: DatabaseValue = row[column]
                if mayBeInFile, case .string(let text) = stored.storage, SQLiteExternalData.isFileName(text) {
                    values.append(try externalValue(text, of: attribute))
                } else {
                    values.append(SQLiteValueCoding.propertyValue(stored, type: type))
                }
            case .toOne(let column, let codeColumn):
                let stored: DatabaseValue = row[column]
                if case .int64(let key) = stored.storage, let destination = loaded.entityByCode[try row.decode(atIndex: codeColumn)] {
                    values.append(.object(ManagedObjectID(entity: destination, store: loaded.tag, primaryKey: key)))
                } else {
                    values.append(.null)
                }
            }
        }
        return RowSnapshot(objectID: id, values: values, version: try row.decode(atIndex: 2))
    }

    func reading<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        do {
            if let pinned = try readPin as? SQLitePinnedReads { return try pinned.snapshot.unsafeReentrantRead(body) }
            return try writer.unsafeReentrantRead(body)
        } catch {
            throw Self.storeError(error, url: url, doing: action)
        }
    }
}
