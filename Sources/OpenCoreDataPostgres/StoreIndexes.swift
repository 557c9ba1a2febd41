#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Keeps a PostgreSQL store's indexes in step with the model, in the loading transaction: the
/// model's indexes (`_ocd_index_…`) and the unique indexes of its uniqueness constraints
/// (`_ocd_unique_…`) are created, and those the model no longer has, or whose definition changed
/// (a subentity added under a constrained one widens a partial index), are dropped.
///
/// Each index the store makes carries its `CREATE` statement as its comment, which is what is
/// compared: PostgreSQL's own rendering of an index (`pg_indexes.indexdef`) is not the
/// statement that made it, and can change between server versions. Other indexes (an
/// administrator's, the join tables' own) are left alone.
struct StoreIndexes {
    let connection: PooledConnection
    let schema: PostgresSchema
    let codes: [String: Int64]
    let errorURL: URL?

    private struct Wanted {
        let name: String
        let statement: String
        /// The constraint a unique index enforces.
        let constraint: UniquenessConstraint?
    }

    func synchronize() throws {
        let uniqueIndexes = SQLiteUniqueIndex.all(in: schema.layout) { codes[$0.entityName] }
        let wanted = schema.layout.indexes.map { Wanted(name: $0.name, statement: schema.createStatement(for: $0), constraint: nil) }
            + uniqueIndexes.map { Wanted(name: $0.name, statement: schema.createStatement(for: $0), constraint: $0.constraint) }
        let statements = Dictionary(wanted.map { ($0.name, $0.statement) }, uniquingKeysWith: { first, _ in first })
        let joinIndexes = Set(schema.joinTables.map(schema.joinTargetIndexName))
        let rows = try connection.query("""
            SELECT c.relname::text, obj_description(c.oid, 'pg_class') FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(schema.schemaName) AND c.relkind = 'i'
            AND (starts_with(c.relname::text, \(SQLiteSchema.indexPrefix)) OR starts_with(c.relname::text, \(SQLiteUniqueIndex.prefix)))
            """)
        var kept: Set<String> = []
        for row in rows {
            let (name, comment) = try row.decode((String, String?).self)
            guard !joinIndexes.contains(name) else { continue }
            if let comment, statements[name] == comment {
                kept.insert(name)
            } else {
                try connection.execute("DROP INDEX \(schema.qualified(name))")
            }
        }
        for index in wanted where !kept.contains(index.name) {
            try create(index)
        }
    }

    private func create(_ index: Wanted) throws {
        do {
            try connection.execute(index.statement)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            guard let constraint = index.constraint else { throw error }
            // The rows already break the constraint; the loading transaction rolls back.
            let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
            throw PersistentStoreError(
                PersistentStoreError.migrationConstraintViolation,
                "cannot add the uniqueness constraint \(constraint): stored \(constraint.entity.entityName) objects share "
                    + "values\(detail); make them unique with the previous model, then open the store again. The store was not changed",
                url: errorURL)
        }
        try connection.execute("COMMENT ON INDEX \(schema.qualified(index.name)) IS \(StoreMigrator.quotedText(index.statement))")
    }
}
#endif
