import GRDB

/// The store generation: a row of `_ocd_metadata` that changes with every commit, whoever makes
/// it, so that a section cache written at one generation is known stale at any other.
///
/// The library's saves advance it by one, in their transaction. Programs that write the file
/// without the library (the `sqlite3` shell, another SQLite library, an older version of this
/// one) advance it too: every table of objects and links has triggers that add one for each row
/// written, unless `_ocd_saving` has a row. That row exists only inside the library's save
/// transactions, which count themselves, so no other connection ever sees it. A writable load
/// creates the row, the table and the triggers, in stores made before they existed too.
extension SQLiteStoreBackend {
    static let generationKey = "generation"

    func generation() throws -> Int64 {
        try reading("reading the store generation") { db in try Self.generation(db) }
    }

    func quietGeneration() throws -> Int64 {
        do {
            return try quietReader.withLock { reader in
                if reader == nil {
                    var configuration = Configuration()
                    configuration.readonly = true
                    configuration.label = "OpenCoreData.changeFeed"
                    configuration.busyMode = .timeout(description.timeout)
                    reader = try DatabaseQueue(path: url.path, configuration: configuration)
                }
                return try reader?.read { db in try Self.generation(db) } ?? 0
            }
        } catch {
            throw Self.storeError(error, url: url, doing: "reading the store generation")
        }
    }

    /// The generation as `db` sees it: inside a transaction, the one the transaction reads.
    static func generation(_ db: Database) throws -> Int64 {
        // Prepared once per connection: the change feed reads it after every commit.
        try Int64.fetchOne(db.cachedStatement(sql: readGenerationSQL)) ?? 0
    }

    private static let readGenerationSQL = """
        SELECT CAST("value" AS INTEGER) FROM \(quoted(SQLiteSchema.metadataTable)) WHERE "key" = '\(generationKey)'
        """

    /// Called inside a save's transaction before its writes: the triggers stand aside until
    /// ``finishCountedWrites(_:)``.
    func beginCountedWrites(_ db: Database) throws {
        try db.cachedStatement(sql: Self.markSavingSQL).execute()
    }

    // The statements every save runs, built once.
    private static let markSavingSQL = "INSERT OR IGNORE INTO \(quoted(SQLiteSchema.savingTable)) VALUES (1)"
    private static let advanceGenerationSQL = """
        INSERT INTO \(quoted(SQLiteSchema.metadataTable)) ("key", "value") VALUES ('\(generationKey)', '1')
        ON CONFLICT ("key") DO UPDATE SET "value" = CAST("value" AS INTEGER) + 1
        RETURNING CAST("value" AS INTEGER)
        """
    private static let unmarkSavingSQL = "DELETE FROM \(quoted(SQLiteSchema.savingTable))"

    /// Called inside a save's transaction after its writes: the generation advances by one (the
    /// triggers left it alone meanwhile), and the triggers count again. The new generation numbers
    /// the save's transaction in the persistent history.
    func finishCountedWrites(_ db: Database) throws -> CommitGenerations {
        // The value column is TEXT, as every metadata value; the arithmetic reads it as a number.
        let after = try Int64.fetchOne(db.cachedStatement(sql: Self.advanceGenerationSQL)) ?? 1
        try db.cachedStatement(sql: Self.unmarkSavingSQL).execute()
        return CommitGenerations(before: after - 1, after: after)
    }

    /// Makes every commit count, at a writable load: the generation row, the `_ocd_saving` table
    /// (emptied, should a row ever have been committed), and the triggers of each table of the
    /// schema. Triggers of ours on tables the schema no longer has, or whose definition changed,
    /// are dropped first.
    func prepareCommitCounting(_ db: Database, schema: SQLiteSchema) throws {
        let metadata = quoted(SQLiteSchema.metadataTable)
        try db.execute(sql: "INSERT OR IGNORE INTO \(metadata) (\"key\", \"value\") VALUES (?, '0')", arguments: [Self.generationKey])
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(quoted(SQLiteSchema.savingTable)) (\"saving\" INTEGER PRIMARY KEY)")
        try db.execute(sql: "DELETE FROM \(quoted(SQLiteSchema.savingTable))")
        let wanted = Dictionary(schema.generationTriggers.map { ($0.name, $0.statement) }, uniquingKeysWith: { first, _ in first })
        let existing = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE ? ESCAPE '\\'",
                                        arguments: [SQLiteSchema.generationTriggerPrefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
        var present: Set<String> = []
        for row in existing {
            let name: String = row["name"]
            let definition: String? = row["sql"]
            if let definition, wanted[name] == definition {
                present.insert(name)
            } else {
                try db.execute(sql: "DROP TRIGGER \(quoted(name))")
            }
        }
        for trigger in schema.generationTriggers where !present.contains(trigger.name) {
            try db.execute(sql: trigger.statement)
        }
    }
}
