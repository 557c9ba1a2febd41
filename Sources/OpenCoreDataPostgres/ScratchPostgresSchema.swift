#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// A PostgreSQL schema of its own for one test or fuzz run, on the server `OCD_POSTGRES_URL`
/// names (`Scripts/test` starts a throwaway one), dropped with everything in it when the last
/// reference goes, so that runs side by side never see each other's tables.
package final class ScratchPostgresSchema: Sendable {
    /// The environment variable naming the server.
    package static let serverVariable = "OCD_POSTGRES_URL"

    package let name: String
    /// The store URL of the schema.
    package let storeURL: String

    /// - Throws: ``PersistentStoreError/invalidStoreURL`` when `OCD_POSTGRES_URL` is not set,
    ///   saying how to set it.
    package convenience init() throws {
        guard let server = ProcessInfo.processInfo.environment[Self.serverVariable], !server.isEmpty else {
            throw PersistentStoreError(
                PersistentStoreError.invalidStoreURL,
                "\(Self.serverVariable) is not set: run the tests through Scripts/test, which starts a throwaway PostgreSQL "
                    + "server, or set it to a server whose database may be written to (postgres://user@host:port/database)")
        }
        self.init(server: server)
    }

    /// A schema on the server at `server` (`postgres://user@host:port/database`), for a test
    /// that runs a server of its own.
    package init(server: String) {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        storeURL = server + (server.contains("?") ? "&" : "?") + "schema=\(name)"
    }

    /// A description of a store in the schema.
    package func description() throws -> PersistentStoreDescription {
        try PersistentStoreDescription(postgres: storeURL)
    }

    /// Runs plain SQL on one connection whose search path is the schema, as a program writing
    /// around the library would; returns the first column of the last statement's rows as text.
    ///
    /// - Throws: ``PersistentStoreError`` when the server refuses a statement.
    @discardableResult
    package func execute(_ statements: [String]) throws -> [String?] {
        let pool = try PostgresConnectionPool(url: PostgresStoreURL(storeURL), timeout: 10, eventLoopThreads: 1)
        defer { pool.close() }
        return try pool.withConnection("a test's statements") { connection in
            _ = try connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(quoted(name))"))
            var rows: PostgresQueryResult?
            for statement in statements { rows = try connection.query(PostgresQuery(unsafeSQL: statement)) }
            return try rows.map { try $0.map { row in try row.decode(String?.self) } } ?? []
        }
    }

    /// Every row of each of `tables` (in the schema; each table with its `ORDER BY`), as the table's
    /// name and PostgreSQL's text of the row, for tests that compare what two stores hold.
    ///
    /// - Throws: When the server cannot be reached or a table does not exist.
    package func rows(of tables: [(name: String, orderBy: String)]) throws -> [String] {
        try tables.flatMap { table in
            try execute(["SELECT t::text FROM \(quoted(table.name)) t ORDER BY \(table.orderBy)"]).map { "\(table.name) \($0 ?? "")" }
        }
    }

    deinit {
        guard let pool = try? PostgresConnectionPool(url: PostgresStoreURL(storeURL), timeout: 10, eventLoopThreads: 1) else { return }
        _ = try? pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(quoted(name)) CASCADE"))
        pool.close()
    }
}
#endif
