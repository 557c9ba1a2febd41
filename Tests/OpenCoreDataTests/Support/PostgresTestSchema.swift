#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres
import PostgresNIO

/// A PostgreSQL schema of one test's own on the server `OCD_POSTGRES_URL` names (`Scripts/test`
/// starts a throwaway one), dropped with everything in it when the last stack using it goes.
final class PostgresTestSchema: Sendable {
    static let variable = "OCD_POSTGRES_URL"

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "\(PostgresTestSchema.variable) is not set: run the tests through Scripts/test, which starts a throwaway "
                + "PostgreSQL server, or export it to a server whose database the tests may write to"
        }
    }

    let name: String
    /// The store URL of the schema.
    let url: String

    init() throws {
        guard let server = ProcessInfo.processInfo.environment[Self.variable], !server.isEmpty else { throw NotConfigured() }
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        url = server + (server.contains("?") ? "&" : "?") + "schema=\(name)"
    }

    func description() throws -> PersistentStoreDescription {
        try PersistentStoreDescription(postgres: url)
    }

    deinit {
        guard let pool = try? PostgresConnectionPool(url: PostgresStoreURL(url), timeout: 10, eventLoopThreads: 1) else { return }
        _ = try? pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(name)\" CASCADE"))
        pool.close()
    }
}
#else
/// Without the `Postgres` trait there are no PostgreSQL stacks.
final class PostgresTestSchema: Sendable {}
#endif
