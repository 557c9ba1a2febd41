#if Postgres
import Foundation
import PostgresNIO

/// One postgres-nio connection of the raw baselines, on an event-loop thread of its own, used
/// synchronously (each call waits for the server's answer), as the store's own pool is.
final class RawPostgres {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let connection: PostgresConnection
    let logger: Logger = {
        var logger = Logger(label: "ocd-bench.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Connects to `server` (`postgres://user[:password]@host[:port]/database`, TLS off: the
    /// benchmark's server is on loopback) and, given a schema, makes it the search path.
    init(server: String, schema: String? = nil) throws {
        guard let url = URLComponents(string: server), let host = url.host, let user = url.user,
              url.path.count > 1 else {
            throw BenchError(description: "'\(server)' is not a postgres://user@host:port/database URL")
        }
        let configuration = PostgresConnection.Configuration(
            host: host, port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: url.password?.removingPercentEncoding, database: String(url.path.dropFirst()), tls: .disable)
        connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        if let schema { try query(#"SET search_path TO "\#(schema)""#) }
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    func query(_ sql: String, _ bindings: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).wait()
    }

    /// Runs one statement and calls `row` for each row as it arrives.
    func forEachRow(_ sql: String, _ row: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger, row).wait()
    }

    func close() {
        _ = try? connection.close().wait()
        try? group.syncShutdownGracefully()
    }
}

extension Team {
    /// The PostgreSQL forms of the raw baselines' statements: the order of the store's index
    /// (`NULLS FIRST` ascending, `NULLS LAST` descending, as memory orders nil), so that the
    /// server reads it from the same index as the store's fetch.
    static let postgresOrder = #"ORDER BY "zone" ASC NULLS FIRST, "wins" DESC NULLS LAST, "name" ASC NULLS FIRST, "_pk""#
    static let postgresOrderedKeysSQL = #"SELECT "_pk" FROM "Team" "# + postgresOrder
    static let postgresOrderedRowsSQL = #"SELECT "_pk", "zone", "wins", "name" FROM "Team" "# + postgresOrder
}
#endif
