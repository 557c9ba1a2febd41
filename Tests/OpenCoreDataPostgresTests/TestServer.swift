#if Postgres
import Foundation
import OpenCoreDataPostgres
import Testing

/// The PostgreSQL server the tests run against: `OCD_POSTGRES_URL`, which `Scripts/test` sets
/// to a throwaway server it starts. Unset, the tests fail (they do not skip) and say how to set it.
enum TestServer {
    static let variable = "OCD_POSTGRES_URL"

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "\(TestServer.variable) is not set: run the tests through Scripts/test, which starts a throwaway "
                + "PostgreSQL server (or start one with `Scripts/postgres-server start DIR` and export "
                + "\(TestServer.variable)=<the URL it prints>), or set it to a server whose database the tests may write to"
        }
    }

    /// The server's URL, with `options` (`"pool=1&sslmode=disable"`) added to its query.
    static func url(_ options: String = "") throws -> String {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else {
            throw NotConfigured()
        }
        guard !options.isEmpty else { return url }
        return url + (url.contains("?") ? "&" : "?") + options
    }

    /// A pool on the server; close it when done.
    static func pool(_ options: String = "", timeout: TimeInterval = 10, eventLoopThreads: Int = 2) throws -> PostgresConnectionPool {
        try PostgresConnectionPool(url: PostgresStoreURL(url(options)), timeout: timeout, eventLoopThreads: eventLoopThreads)
    }
}
#endif
