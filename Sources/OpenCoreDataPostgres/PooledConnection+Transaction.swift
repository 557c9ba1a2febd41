#if Postgres
import OpenCoreData
import PostgresNIO

extension PooledConnection {
    /// Runs one statement built by the store (DDL, whose names cannot be parameters), ignoring
    /// its rows.
    ///
    /// - Throws: As ``query(_:)``.
    package func execute(_ sql: String) throws {
        _ = try query(PostgresQuery(unsafeSQL: sql))
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameters:
    ///   - begin: The statement that opens it, with its isolation level and access mode.
    ///   - body: The transaction's statements, on this connection.
    /// - Throws: What `body` threw, or the failure of `begin` or `COMMIT`.
    package func transaction<Result>(_ begin: String = "BEGIN", _ body: () throws -> Result) throws -> Result {
        try execute(begin)
        let result: Result
        do {
            result = try body()
        } catch {
            // A closed connection has rolled back on the server already; the pool drops it.
            if !isConnectionClosed { try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return result
    }
}
#endif
