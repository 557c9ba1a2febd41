import GRDB

/// The tables of an SQLite store's persistent history.
///
/// - `_ocd_history_transaction`: one row per recorded transaction, keyed by its number (the store
///   generation it committed), with its timestamp (seconds since 2001), author, context name,
///   bundle and process, and `first_change`, the ID of its first change.
/// - `_ocd_history_change`: one row per changed object, or per run of new objects of one entity
///   with consecutive keys (a save of 100,000 new objects is one row): its first change ID (`_pk`;
///   the run's changes are numbered `_pk` to `_pk + count - 1`), its transaction, the change type
///   (Core Data's raw values), the entity code, the first object's primary key, the run's length,
///   and for updates the changed properties' names, comma-separated. A transaction's changes are
///   numbered after every earlier transaction's, so a range of transactions is a range of rows,
///   found without an index.
/// - `_ocd_history_tombstone`: the preserved attributes of deleted objects, by change ID and
///   attribute name, each value in its attribute's stored form.
/// - `_ocd_history_prior_value`: the values changes overwrote, by change ID and attribute name:
///   the changed attributes of updates, every attribute of deletions (see
///   ``HistoryChangeRecord/priorValues``), for contexts of other processes that merge them.
/// - `_ocd_history_reader`: the readers that hold history (see ``PersistentHistoryRetention``):
///   name, the number of the last transaction read, and when they said so.
///
/// The metadata row `historyNextChange` keeps the next change ID when every change was deleted,
/// so that change IDs never repeat.
package enum SQLiteHistorySchema {
    package static let transactionTable = "_ocd_history_transaction"
    package static let changeTable = "_ocd_history_change"
    package static let tombstoneTable = "_ocd_history_tombstone"
    package static let priorValueTable = "_ocd_history_prior_value"
    package static let readerTable = "_ocd_history_reader"
    static let nextChangeKey = "historyNextChange"

    package static var tableNames: [String] { [transactionTable, changeTable, tombstoneTable, priorValueTable, readerTable] }

    /// Creates the tables a store lacks (new stores, and stores made before history existed),
    /// and drops history that is ahead of the store generation: transaction numbers are
    /// generations, and a generation that went back (its metadata row deleted or restored) would
    /// make the next save's number collide with a recorded one. Called when a store loads.
    static func prepare(_ db: Database) throws {
        try create(db)
        let generation = try SQLiteStoreBackend.generation(db)
        guard let firstAhead = try Int64.fetchOne(db, sql: """
            SELECT "first_change" FROM \(quoted(transactionTable)) WHERE "_pk" > ? ORDER BY "_pk" LIMIT 1
            """, arguments: [generation]) else { return }
        try db.execute(sql: "DELETE FROM \(quoted(transactionTable)) WHERE \"_pk\" > ?", arguments: [generation])
        try db.execute(sql: "DELETE FROM \(quoted(changeTable)) WHERE \"_pk\" >= ?", arguments: [firstAhead])
        try db.execute(sql: "DELETE FROM \(quoted(tombstoneTable)) WHERE \"change\" >= ?", arguments: [firstAhead])
        try db.execute(sql: "DELETE FROM \(quoted(priorValueTable)) WHERE \"change\" >= ?", arguments: [firstAhead])
    }

    /// Creates the tables a store lacks.
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(quoted(transactionTable)) ("_pk" INTEGER PRIMARY KEY, "timestamp" REAL NOT NULL, \
            "author" TEXT, "context_name" TEXT, "bundle_id" TEXT NOT NULL, "process_id" TEXT NOT NULL, \
            "first_change" INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS \(quoted(changeTable)) ("_pk" INTEGER PRIMARY KEY, "transaction" INTEGER NOT NULL, \
            "type" INTEGER NOT NULL, "entity" INTEGER NOT NULL, "object" INTEGER NOT NULL, "count" INTEGER NOT NULL, \
            "properties" TEXT);
            CREATE TABLE IF NOT EXISTS \(quoted(tombstoneTable)) ("change" INTEGER NOT NULL, "attribute" TEXT NOT NULL, \
            "value", PRIMARY KEY ("change", "attribute")) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(quoted(priorValueTable)) ("change" INTEGER NOT NULL, "attribute" TEXT NOT NULL, \
            "value", PRIMARY KEY ("change", "attribute")) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(quoted(readerTable)) ("name" TEXT PRIMARY KEY, "transaction" INTEGER NOT NULL, \
            "seen" REAL NOT NULL) WITHOUT ROWID;
            """)
    }
}
