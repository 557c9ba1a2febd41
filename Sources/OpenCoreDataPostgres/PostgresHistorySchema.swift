#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// The PostgreSQL store's persistent history and generation objects, in the store's schema: the
/// tables of ``SQLiteHistorySchema`` (same names, columns and numbering), typed; the generation
/// row's `next_change`; and the triggers that count the commits of programs writing the tables
/// without the library (Docs/PostgresStore.md, "Generation and writers that bypass the library").
///
/// Typed where SQLite is dynamic: a tombstone's or prior value's value is one of six nullable
/// columns, filled by the value's kind and read by the attribute's type. Change IDs are not kept
/// in the metadata once every change is deleted (SQLite's `historyNextChange`): the generation
/// row's `next_change` hands them out, in the statement that takes the transaction's number.
enum PostgresHistorySchema {
    static let transactionTable = SQLiteHistorySchema.transactionTable
    static let changeTable = SQLiteHistorySchema.changeTable
    static let tombstoneTable = SQLiteHistorySchema.tombstoneTable
    static let priorValueTable = SQLiteHistorySchema.priorValueTable
    static let readerTable = SQLiteHistorySchema.readerTable
    /// The function the generation triggers run.
    static let countingFunction = "_ocd_count_write"
    /// The name of every table's generation trigger (trigger names are per table).
    static let triggerName = "_ocd_generation"

    /// The value columns of the tombstone and prior value tables, with their types: one holds a
    /// value, chosen by its kind (``valueColumn(of:)``); a nil value leaves all six NULL.
    static let valueColumns: [(name: String, type: String)] = [
        ("integer_value", "bigint"), ("double_value", "double precision"), ("decimal_value", "numeric"),
        ("text_value", "text"), ("data_value", "bytea"), ("uuid_value", "uuid"),
    ]

    /// The index in ``valueColumns`` of the column that holds values of an attribute type.
    static func valueColumn(of type: AttributeType) -> Int {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: 0
        case .doubleAttributeType, .floatAttributeType, .dateAttributeType: 1
        case .decimalAttributeType: 2
        case .stringAttributeType, .URIAttributeType: 3
        case .binaryDataAttributeType, .transformableAttributeType: 4
        case .UUIDAttributeType: 5
        }
    }

    /// The index in ``valueColumns`` of the column that holds `value`; nil for a nil value (and
    /// for an object ID, which no attribute holds).
    static func valueColumn(of value: PropertyValue) -> Int? {
        switch value {
        case .null, .object: nil
        case .integer, .boolean: 0
        case .double, .date: 1
        case .decimal: 2
        case .string, .uri: 3
        case .data: 4
        case .uuid: 5
        }
    }

    /// The channel each commit notifies: `ocd_` and the store identifier without dashes, in
    /// lower case (so that `LISTEN ocd_…` needs no quotes in psql).
    static func channel(storeIdentifier: String) -> String {
        "ocd_" + storeIdentifier.replacingOccurrences(of: "-", with: "").lowercased()
    }

    // MARK: Creating and upgrading

    /// Makes what the store lacks: the history tables, `next_change`, the counting function and
    /// a trigger on every table of objects and links (stores made before history, and tables a
    /// migration added); and drops history ahead of the generation, as
    /// ``SQLiteHistorySchema/prepare(_:)`` does. Runs in the load's transaction, under its lock.
    static func prepare(_ connection: PooledConnection, schema: PostgresSchema, storeIdentifier: String) throws {
        let catalog = try StoreCatalog(connection, schema: schema)
        for (table, statement) in createStatements(schema) where !catalog.tables.contains(table) {
            try connection.execute(statement)
        }
        let generation = schema.qualified(PostgresSchema.generationTable)
        let hasNextChange = try !connection.query("""
            SELECT 1 FROM pg_attribute WHERE attrelid = \(generation)::regclass AND attname = 'next_change' AND NOT attisdropped
            """).isEmpty
        if !hasNextChange {
            try connection.execute("ALTER TABLE \(generation) ADD COLUMN \"next_change\" bigint NOT NULL DEFAULT 1")
        }
        try synchronizeTriggers(connection, schema: schema, storeIdentifier: storeIdentifier)
        try dropHistoryAhead(connection, schema: schema)
    }

    /// The statements that create the tables, by table name.
    private static func createStatements(_ schema: PostgresSchema) -> [(String, String)] {
        let values = valueColumns.map { "\(quoted($0.name)) \($0.type)" }.joined(separator: ", ")
        return [
            (transactionTable, """
                CREATE TABLE \(schema.qualified(transactionTable)) ("_pk" bigint PRIMARY KEY, "timestamp" double precision NOT NULL, \
                "author" text, "context_name" text, "bundle_id" text NOT NULL, "process_id" text NOT NULL, "first_change" bigint NOT NULL)
                """),
            (changeTable, """
                CREATE TABLE \(schema.qualified(changeTable)) ("_pk" bigint PRIMARY KEY, "transaction" bigint NOT NULL, \
                "type" bigint NOT NULL, "entity" bigint NOT NULL, "object" bigint NOT NULL, "count" bigint NOT NULL, "properties" text)
                """),
            (tombstoneTable, """
                CREATE TABLE \(schema.qualified(tombstoneTable)) ("change" bigint NOT NULL, "attribute" text COLLATE "C" NOT NULL, \
                \(values), PRIMARY KEY ("change", "attribute"))
                """),
            (priorValueTable, """
                CREATE TABLE \(schema.qualified(priorValueTable)) ("change" bigint NOT NULL, "attribute" text COLLATE "C" NOT NULL, \
                \(values), PRIMARY KEY ("change", "attribute"))
                """),
            (readerTable, """
                CREATE TABLE \(schema.qualified(readerTable)) ("name" text COLLATE "C" PRIMARY KEY, "transaction" bigint NOT NULL, \
                "seen" double precision NOT NULL)
                """),
        ]
    }

    /// The counting function's body: a statement that writes a table of objects or links outside
    /// a library save (which sets `ocd.saving` for its transaction only) advances the generation
    /// and notifies, as a save does, and records no history: a gap, so readers before it refetch.
    static func countingFunctionBody(schema: PostgresSchema, storeIdentifier: String) -> String {
        """
        DECLARE generation bigint;
        BEGIN
            IF coalesce(current_setting('ocd.saving', true), '') <> 'on' THEN
                UPDATE \(schema.qualified(PostgresSchema.generationTable)) SET "value" = "value" + 1 RETURNING "value" INTO generation;
                PERFORM pg_notify('\(channel(storeIdentifier: storeIdentifier))', generation::text);
            END IF;
            RETURN NULL;
        END
        """
    }

    /// Creates (or corrects) the counting function, and a statement-level trigger running it on
    /// each table of objects and links that lacks one. `TRUNCATE` counts too.
    private static func synchronizeTriggers(_ connection: PooledConnection, schema: PostgresSchema, storeIdentifier: String) throws {
        let body = countingFunctionBody(schema: schema, storeIdentifier: storeIdentifier)
        let function = schema.qualified(countingFunction)
        let current = try connection.query("""
            SELECT p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = \(schema.schemaName) AND p.proname = \(countingFunction)
            """).first?.decode(String.self)
        if current != body {
            try connection.execute("CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $ocd$\(body)$ocd$")
        }
        let triggered = Set(try connection.query("""
            SELECT c.relname::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(schema.schemaName) AND t.tgname = \(triggerName)
            """).map { try $0.decode(String.self) })
        for table in schema.tables.map(\.name) + schema.joinTables.map(\.name) where !triggered.contains(table) {
            try connection.execute("""
                CREATE TRIGGER \(quoted(triggerName)) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(schema.qualified(table)) \
                FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
                """)
        }
    }

    /// Transaction numbers are generations: history ahead of the generation (its row restored
    /// from an older copy) would collide with the next save's number.
    private static func dropHistoryAhead(_ connection: PooledConnection, schema: PostgresSchema) throws {
        let generation = schema.qualified(PostgresSchema.generationTable)
        let firstAhead = try connection.query(PostgresQuery(unsafeSQL: """
            SELECT t."first_change" FROM \(schema.qualified(transactionTable)) t, \(generation) g
            WHERE t."_pk" > g."value" ORDER BY t."_pk" LIMIT 1
            """)).first?.decode(Int64.self)
        if let firstAhead {
            try connection.execute("DELETE FROM \(schema.qualified(transactionTable)) WHERE \"_pk\" > (SELECT \"value\" FROM \(generation))")
            for (table, column) in [(changeTable, "_pk"), (tombstoneTable, "change"), (priorValueTable, "change")] {
                try connection.execute("DELETE FROM \(schema.qualified(table)) WHERE \(quoted(column)) >= \(firstAhead)")
            }
        }
        // Change IDs never repeat, whatever was deleted or restored.
        try connection.execute("""
            UPDATE \(generation) SET "next_change" = c."next" FROM (SELECT max("_pk" + "count") AS "next" FROM \(schema.qualified(changeTable))) c
            WHERE c."next" > "next_change"
            """)
    }
}
#endif
