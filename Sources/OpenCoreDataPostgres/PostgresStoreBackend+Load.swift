#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Creating a new store, checking an existing one against the model, and lightweight migration,
/// as the SQLite store does (`SQLiteStoreBackend+Load`), with the same metadata, the same rule
/// of which model may migrate a store (``ModelVersionChecking``) and the same errors.
///
/// A load is one transaction (PostgreSQL's DDL is transactional: a failed migration leaves
/// nothing behind) that first takes `pg_advisory_xact_lock` on the store schema's name, so that
/// servers starting at once load one after the other: the first creates or migrates the store,
/// the next finds it done. The transaction is READ COMMITTED, so each statement after the lock
/// sees what the previous holder committed (a REPEATABLE READ snapshot, taken by the locking
/// statement itself, would not).
extension PostgresStoreBackend {
    /// The first key of the advisory lock, so that the store's locks do not meet an app's own
    /// one-key locks ("OCD\0"); the second is `hashtext` of the schema's name. Two schemas whose
    /// names hash alike only load one after the other.
    static let loadLockNamespace: Int32 = 0x4F43_4400

    package func load(model: ManagedObjectModel) throws -> String {
        // Before any connection: a name PostgreSQL would truncate changes nothing.
        let schema = try PostgresSchema(model: model, schemaName: url.schema)
        let current = ModelSchema(model: model)
        let opening = ModelVersion(model: model, schema: current)
        let readOnly = description.isReadOnly
        let (identifier, codes) = try pool.withConnection("loading the store") { connection in
            try checkEncoding(connection)
            try checkServerVersion(try connection.query("SHOW server_version_num").first?.decode(String.self) ?? "")
            return try connection.transaction(readOnly ? "BEGIN READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED") {
                let lock: PostgresQuery = "SELECT pg_advisory_xact_lock(\(Self.loadLockNamespace), hashtext(\(url.schema)))"
                _ = try connection.query(lock)
                let catalog = try StoreCatalog(connection, schema: schema)
                if readOnly {
                    return try checkReadOnly(connection, catalog: catalog, schema: schema, current: current, opening: opening)
                }
                return try openOrCreate(connection, catalog: catalog, schema: schema, current: current, opening: opening)
            }
        }
        setLoaded(Loaded(identifier: identifier, schema: schema, codes: codes))
        log.debug("loaded PostgreSQL store \(url.redacted)")
        return identifier
    }

    package func recordedModelChecksum() throws -> String? {
        try pool.withConnection("reading which model made the store", retryingIfLost: true) { connection in
            let table = "\(quoted(url.schema)).\(quoted(PostgresSchema.metadataTable))"
            guard try connection.query("SELECT to_regclass(\(table)) IS NOT NULL").first?.decode(Bool.self) == true else { return nil }
            return try readMetadata(connection, table: table).hash
        }
    }

    /// The store compares and keeps text as UTF-8; another server encoding would change both.
    private func checkEncoding(_ connection: PooledConnection) throws {
        let encoding = try connection.query("SHOW server_encoding").first?.decode(String.self) ?? "?"
        guard encoding == "UTF8" else {
            throw PersistentStoreError(
                PersistentStoreError.unsupportedDatabaseEncoding,
                "the database '\(url.database)' is encoded in \(encoding); the PostgreSQL store needs UTF8 "
                    + "(CREATE DATABASE … ENCODING 'UTF8')",
                url: errorURL)
        }
    }

    /// The oldest PostgreSQL the store runs on: 13, for `pg_current_xact_id` and `xid8`, which
    /// a save's commit-in-doubt path needs.
    static let minimumServerVersion = 130_000

    /// Refuses a server older than ``minimumServerVersion``, given its `server_version_num`, at
    /// load rather than with an unknown function at the first save.
    ///
    /// - Throws: ``PersistentStoreError/cannotOpen`` naming the version.
    package func checkServerVersion(_ versionNumber: String) throws {
        guard let number = Int(versionNumber), number >= Self.minimumServerVersion else {
            let major = Int(versionNumber).map { $0 >= 100_000 ? "\($0 / 10_000)" : "\($0 / 10_000).\($0 / 100 % 100)" } ?? "unknown"
            throw PersistentStoreError(
                PersistentStoreError.cannotOpen,
                "the PostgreSQL server is version \(major); the PostgreSQL store needs version 13 or later",
                url: errorURL)
        }
    }

    private func openOrCreate(_ connection: PooledConnection, catalog: StoreCatalog, schema: PostgresSchema,
                              current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        guard catalog.tables.contains(PostgresSchema.metadataTable) else {
            return try create(connection, catalog: catalog, schema: schema, current: current, opening: opening)
        }
        let metadata = try readMetadata(connection, schema: schema)
        var codes = metadata.codes
        if metadata.hash != current.versionHash {
            let migration = try permittedMigration(from: metadata.version, schema: metadata.schema, to: current, opening: opening)
            var migrator = StoreMigrator(connection: connection, schema: schema, catalog: catalog, codes: codes)
            for step in migration.steps {
                try migrator.apply(step)
            }
            codes = migrator.codes
            try writeMetadata(connection, schema: schema, identifier: metadata.identifier, current: current, version: opening, codes: codes)
            log.debug("migrated PostgreSQL store \(url.redacted): \(migration.steps.count) change(s)")
        } else if metadata.version.name == nil, opening.name != nil {
            // A store made before models had names takes the name of the first that opens it.
            try writeModelVersion(connection, schema: schema, opening)
        }
        try StoreIndexes(connection: connection, schema: schema, codes: codes, errorURL: errorURL).synchronize()
        // Stores made before history gain its tables and the generation triggers here.
        try PostgresHistorySchema.prepare(connection, schema: schema, storeIdentifier: metadata.identifier)
        return (metadata.identifier, codes)
    }

    private func checkReadOnly(_ connection: PooledConnection, catalog: StoreCatalog, schema: PostgresSchema,
                               current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        guard catalog.tables.contains(PostgresSchema.metadataTable) else {
            throw PersistentStoreError(
                PersistentStoreError.invalidStoreFile,
                "the schema '\(url.schema)' holds no OpenCoreData store (it has no \(PostgresSchema.metadataTable) table), and a read-only store cannot be created",
                url: errorURL)
        }
        let metadata = try readMetadata(connection, schema: schema)
        if metadata.hash != current.versionHash {
            let migration = SchemaMigration(from: metadata.schema, to: current)
            guard migration.isEmpty else {
                throw incompatible(migration, made: metadata.version, opening: opening, reason: "a read-only store cannot be migrated")
            }
        }
        return (metadata.identifier, metadata.codes)
    }

    // MARK: New stores

    private func create(_ connection: PooledConnection, catalog: StoreCatalog, schema: PostgresSchema,
                        current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        guard catalog.tables.isEmpty else {
            let names = catalog.tables.sorted().prefix(5).joined(separator: ", ")
            throw PersistentStoreError(
                PersistentStoreError.invalidStoreFile,
                "the schema '\(url.schema)' was not made by OpenCoreData (it has tables \(names)); give the store a schema of its own with the URL's schema option",
                url: errorURL)
        }
        if !catalog.schemaExists {
            try connection.execute("CREATE SCHEMA \(quoted(url.schema))")
        }
        try connection.execute(
            "CREATE TABLE \(schema.qualified(PostgresSchema.metadataTable)) (\"key\" text COLLATE \"C\" PRIMARY KEY, \"value\" text NOT NULL)")
        try connection.execute(
            "CREATE TABLE \(schema.qualified(PostgresSchema.generationTable)) (\"value\" bigint NOT NULL)")
        try connection.execute("INSERT INTO \(schema.qualified(PostgresSchema.generationTable)) VALUES (0)")
        let codes = StoreMetadata.newCodes(for: current)
        for table in schema.tables {
            for statement in schema.createStatements(for: table) { try connection.execute(statement) }
        }
        for joinTable in schema.joinTables {
            for statement in schema.createStatements(for: joinTable) { try connection.execute(statement) }
        }
        try StoreIndexes(connection: connection, schema: schema, codes: codes, errorURL: errorURL).synchronize()
        let identifier = UUID().uuidString
        try writeMetadataValue(connection, schema: schema, key: StoreMetadata.Key.format, value: "1")
        try writeMetadata(connection, schema: schema, identifier: identifier, current: current, version: opening, codes: codes)
        try PostgresHistorySchema.prepare(connection, schema: schema, storeIdentifier: identifier)
        log.debug("created PostgreSQL store \(url.redacted)")
        return (identifier, codes)
    }

    // MARK: Metadata

    private func readMetadata(_ connection: PooledConnection, schema: PostgresSchema) throws -> StoreMetadata {
        try readMetadata(connection, table: schema.qualified(PostgresSchema.metadataTable))
    }

    /// The metadata in `table` (qualified by its schema).
    package func readMetadata(_ connection: PooledConnection, table: String) throws -> StoreMetadata {
        let rows = try connection.query(PostgresQuery(unsafeSQL: "SELECT \"key\", \"value\" FROM \(table)"))
        var values: [String: String] = [:]
        for row in rows {
            let (key, value) = try row.decode((String, String).self)
            values[key] = value
        }
        guard let metadata = StoreMetadata(values: values) else {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the store's metadata is missing or unreadable", url: errorURL)
        }
        return metadata
    }

    private func writeMetadataValue(_ connection: PooledConnection, schema: PostgresSchema, key: String, value: String?) throws {
        let table = schema.qualified(PostgresSchema.metadataTable)
        guard let value else {
            var delete = PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \"key\" = $1")
            delete.binds.append(key)
            _ = try connection.query(delete)
            return
        }
        var upsert = PostgresQuery(
            unsafeSQL: "INSERT INTO \(table) VALUES ($1, $2) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"")
        upsert.binds.append(key)
        upsert.binds.append(value)
        _ = try connection.query(upsert)
    }

    /// Records which model made (or migrated) the store.
    private func writeModelVersion(_ connection: PooledConnection, schema: PostgresSchema, _ version: ModelVersion) throws {
        let (name, identifiers) = try StoreMetadata.versionValues(version)
        try writeMetadataValue(connection, schema: schema, key: StoreMetadata.Key.modelName, value: name)
        try writeMetadataValue(connection, schema: schema, key: StoreMetadata.Key.modelVersionIdentifiers, value: identifiers)
    }

    private func writeMetadata(_ connection: PooledConnection, schema: PostgresSchema, identifier: String, current: ModelSchema,
                               version: ModelVersion, codes: [String: Int64]) throws {
        let values = try StoreMetadata.values(identifier: identifier, current: current, codes: codes)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try writeMetadataValue(connection, schema: schema, key: key, value: value)
        }
        try writeModelVersion(connection, schema: schema, version)
    }
}

/// What the store's PostgreSQL schema holds, read once per load.
struct StoreCatalog {
    let schemaExists: Bool
    /// The names of the schema's tables.
    var tables: Set<String>

    init(_ connection: PooledConnection, schema: PostgresSchema) throws {
        let name = schema.schemaName
        schemaExists = try !connection.query("SELECT 1 FROM pg_namespace WHERE nspname = \(name)").isEmpty
        let rows = try connection.query("""
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(name) AND c.relkind IN ('r', 'p')
            """)
        tables = Set(try rows.map { try $0.decode(String.self) })
    }
}
#endif
