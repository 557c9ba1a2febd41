#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO
import Testing

/// A PostgreSQL schema of its own for one test on the server of ``TestServer``: stores made
/// with ``description(_:)`` live in it. ``drop()`` removes it and everything in it.
final class TestStoreSchema: Sendable {
    let name: String
    /// A connection of the test's own, for plain SQL beside the store.
    let admin: PostgresConnectionPool

    init() throws {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        admin = try TestServer.pool("pool=2")
    }

    /// The store URL, with more options if given.
    func url(_ options: String = "") throws -> String {
        try TestServer.url("schema=\(name)" + (options.isEmpty ? "" : "&\(options)"))
    }

    /// The store URL with a password, and the password: the server's own if its URL has one,
    /// else one the test server ignores (it trusts local connections).
    func urlWithPassword() throws -> (url: String, password: String) {
        let url = try self.url()
        let parsed = try PostgresStoreURL(url)
        if let password = parsed.password { return (url, password) }
        let password = "Pa55word"
        return (url.replacingOccurrences(of: "://\(parsed.user)@", with: "://\(parsed.user):\(password)@"), password)
    }

    func description(_ options: String = "") throws -> PersistentStoreDescription {
        try PersistentStoreDescription(postgres: url(options))
    }

    /// A container of `model` whose store is loaded from this schema.
    func load(_ model: ManagedObjectModel, name: String = "League",
              configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        let description = try description()
        configure(description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    func drop() {
        _ = try? admin.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(name)\" CASCADE"))
        admin.close()
    }

    /// `"t_…"."table"`.
    func qualified(_ table: String) -> String {
        "\"\(name)\".\"\(table)\""
    }

    func execute(_ sql: String) throws {
        _ = try admin.query(PostgresQuery(unsafeSQL: sql))
    }

    /// Runs `statements` in one transaction on one connection, then rolls it back.
    func executeAndRollBack(_ statements: [String]) throws {
        try admin.withConnection { connection in
            try connection.execute("BEGIN")
            for statement in statements { try connection.execute(statement) }
            try connection.execute("ROLLBACK")
        }
    }

    /// The rows of a query whose columns are all text (cast them), each row joined with " | ",
    /// NULL as "nil".
    func rows(_ sql: String) throws -> [String] {
        try admin.query(PostgresQuery(unsafeSQL: sql)).map { row in
            try row.map { cell in try cell.decode(String?.self) ?? "nil" }.joined(separator: " | ")
        }
    }

    /// Every table, column (with its type and collation), index (with its definition), sequence
    /// and metadata row of the schema, sorted: equal before and after means nothing changed.
    func catalog() throws -> [String] {
        let n = "'\(name)'"
        var lines = try rows("""
            SELECT c.relkind::text || ' ' || c.relname::text FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
            WHERE s.nspname = \(n)
            """)
        lines += try rows("""
            SELECT 'column ' || c.relname::text || '.' || a.attname::text || ' ' || format_type(a.atttypid, a.atttypmod)
                || coalesce(' collate ' || co.collname::text, '') || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace s ON s.oid = c.relnamespace
            LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 100
            LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE s.nspname = \(n) AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
            """)
        lines += try rows("SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = \(n)")
        if try !rows("SELECT 1 FROM pg_tables WHERE schemaname = \(n) AND tablename = '_ocd_metadata'").isEmpty {
            lines += try rows("SELECT 'metadata ' || \"key\" || ' = ' || \"value\" FROM \(qualified("_ocd_metadata"))")
        }
        return lines.sorted()
    }

    /// The code the store gave an entity.
    func entityCode(_ entity: String) throws -> Int64 {
        let text = try #require(try rows("SELECT \"value\" FROM \(qualified("_ocd_metadata")) WHERE \"key\" = 'entityCodes'").first)
        let codes = try JSONDecoder().decode([String: Int64].self, from: Data(text.utf8))
        return try #require(codes[entity], "no code for \(entity) in \(text)")
    }
}
#endif
