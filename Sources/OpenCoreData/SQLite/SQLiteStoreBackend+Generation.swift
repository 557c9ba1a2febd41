import GRDB

/// The store generation: a row of `_ocd_metadata` that each save transaction increments, so that
/// every connection and process sees it change with the data. Stores have no row until their
/// first save (stores made before generations existed included): no row reads as 0.
extension SQLiteStoreBackend {
    static let generationKey = "generation"

    func generation() throws -> Int64 {
        try reading("reading the store generation") { db in
            try Int64.fetchOne(db, sql: "SELECT CAST(\"value\" AS INTEGER) FROM \(quoted(SQLiteSchema.metadataTable)) WHERE \"key\" = ?",
                               arguments: [Self.generationKey]) ?? 0
        }
    }

    /// Called inside a save's transaction, after its writes; returns the new generation, which
    /// numbers the save's transaction in the persistent history.
    @discardableResult
    func advanceGeneration(_ db: Database) throws -> Int64 {
        // The value column is TEXT, as every metadata value; the arithmetic reads it as a number.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO \(quoted(SQLiteSchema.metadataTable)) ("key", "value") VALUES (?, '1')
            ON CONFLICT ("key") DO UPDATE SET "value" = CAST("value" AS INTEGER) + 1
            RETURNING CAST("value" AS INTEGER)
            """)
        guard let generation = try Int64.fetchOne(statement, arguments: [Self.generationKey]) else {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the store generation could not be advanced", url: url)
        }
        return generation
    }
}
