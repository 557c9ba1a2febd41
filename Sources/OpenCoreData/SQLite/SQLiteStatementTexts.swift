import GRDB
import GRDBSQLite

/// The SQL that saves, faults and objects by ID run again and again, built once when the store
/// loads. Built per use (each column quoted, the lists joined), it cost more than SQLite's own work
/// for a one-row save; the text still finds its prepared statement through GRDB's cache of each
/// connection.
struct SQLiteStatementTexts: Sendable {
    /// A table's `SELECT … WHERE "_pk" IN (?, …)` for 1, 2, 4 … ``maximumKeys`` keys, by table name.
    private let keyLookups: [String: [String]]
    /// NULL for each parameter of a key lookup of 1, 2, 4 … ``maximumKeys`` keys (see
    /// ``KeyLookup/bind(_:to:)``).
    private let unboundKeys: [StatementArguments]
    /// How new rows of each entity with a table are inserted, by entity.
    let inserts: [ObjectIdentifier: SQLiteRowInserter.Plan]
    /// The UPDATEs saves have made, by entity and changed slots: an app changes the same few
    /// shapes again and again. Kept up to ``maximumUpdates``, then built per save.
    private let updates = Locked<[SQLiteStoreBackend.UpdateShape: ParameterizedSQL]>([:])
    private static let maximumUpdates = 1024

    /// The most keys one lookup binds.
    static let maximumKeys = 512

    /// The fetch and count SELECTs kept prepared in each connection's statement cache, up to
    /// ``maximumSelects``; later texts are prepared per fetch. Preparing one cost about 70,000
    /// instructions, a fifth of a count, and an app runs the same few requests again and again;
    /// the bound keeps requests whose text varies (an `IN` list of each length) from filling
    /// every connection's cache, which never lets statements go.
    private let selects = Locked<Set<String>>([])
    private static let maximumSelects = 256
    private static let longestCachedSelect = 4096

    /// A prepared statement for a fetch's or count's SELECT: the connection's cached one while
    /// the text is among the first ``maximumSelects`` seen.
    func select(_ sql: String, in db: Database) throws -> Statement {
        // A long text (a predicate with a long list) is seldom run twice and costs its hashing.
        guard sql.utf8.count <= Self.longestCachedSelect else { return try db.makeStatement(sql: sql) }
        let cached = selects.withLock { texts in
            if texts.contains(sql) { return true }
            guard texts.count < Self.maximumSelects else { return false }
            texts.insert(sql)
            return true
        }
        return cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }

    init(schema: SQLiteSchema, codeByEntity: [ObjectIdentifier: Int64], entities: [EntityDescription]) {
        var keyLookups: [String: [String]] = [:]
        let widths = Array(sequence(first: 1) { $0 < Self.maximumKeys ? $0 * 2 : nil })
        for table in schema.tables.values {
            let list = SQLiteStoreBackend.selectList(table)
            keyLookups[table.name] = widths.map { width in
                "SELECT \(list) FROM \(quoted(table.name)) WHERE \"_pk\" IN (\(Array(repeating: "?", count: width).joined(separator: ",")))"
            }
        }
        self.keyLookups = keyLookups
        unboundKeys = widths.map { StatementArguments(Array(repeating: DatabaseValue.null, count: $0)) }
        var inserts: [ObjectIdentifier: SQLiteRowInserter.Plan] = [:]
        for entity in entities {
            guard let table = schema.table(for: entity) else { continue }
            inserts[ObjectIdentifier(entity)] = SQLiteRowInserter.Plan(entity: entity, table: table, schema: schema,
                                                                       code: codeByEntity[ObjectIdentifier(entity)] ?? 0)
        }
        self.inserts = inserts
    }

    /// The UPDATE of rows of `shape`, made by `make` the first time.
    func update(_ shape: SQLiteStoreBackend.UpdateShape, parameters: Int, make: () -> String) -> ParameterizedSQL {
        if let known = updates.withLock({ $0[shape] }) { return known }
        let made = ParameterizedSQL(sql: make(), parameters: parameters)
        updates.withLock { known in
            if known.count < Self.maximumUpdates { known[shape] = made }
        }
        return made
    }

    /// A statement's text, with NULL for each of its parameters: set on the statement before its
    /// values are bound one by one through SQLite's API (see ``KeyLookup/bind(_:to:)``).
    struct ParameterizedSQL: Sendable {
        let sql: String
        let unbound: StatementArguments

        init(sql: String, parameters: Int) {
            self.sql = sql
            unbound = StatementArguments(Array(repeating: DatabaseValue.null, count: parameters))
        }
    }

    /// A lookup of `count` keys (at most ``maximumKeys``) in `table`.
    func keyLookup(in table: SQLiteSchema.Table, count: Int) -> KeyLookup {
        // The power of two at or above `count`: one prepared statement per width, not per count.
        let index = count <= 1 ? 0 : Int.bitWidth - (count - 1).leadingZeroBitCount
        return KeyLookup(sql: keyLookups[table.name]?[index] ?? "", width: 1 << index, unbound: unboundKeys[index])
    }

    /// One `SELECT … WHERE "_pk" IN (?, …)` with ``width`` parameters.
    struct KeyLookup {
        let sql: String
        let width: Int
        let unbound: StatementArguments

        /// Binds `keys` (1 to ``width`` of them) to `statement`, the last key repeated to fill the
        /// list (IN selects no more), through SQLite's API: GRDB's `StatementArguments` maps each
        /// value through a key path, about 12,000 instructions for a lookup of one key. The
        /// statement is then ready for a cursor made without arguments.
        func bind(_ keys: ArraySlice<Int64>, to statement: Statement) throws {
            // Resets the statement and marks its arguments as set, so that the cursor keeps the
            // bindings below instead of checking for arguments it was not given.
            statement.setUncheckedArguments(unbound)
            guard let last = keys.last else { return }
            let sqliteStatement = statement.sqliteStatement
            for parameter in 0..<width {
                let index = keys.startIndex + parameter
                let code = sqlite3_bind_int64(sqliteStatement, Int32(parameter + 1), index < keys.endIndex ? keys[index] : last)
                guard code == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind key \(parameter + 1)", sql: sql)
                }
            }
        }
    }
}
