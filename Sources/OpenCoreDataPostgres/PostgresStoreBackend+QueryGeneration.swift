#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// A PostgreSQL store's reads pinned for a query generation: a connection of its own, outside the
/// pool, in a read-only repeatable-read transaction whose snapshot (taken by its first statement)
/// every read under the pin sees. The connection closes with the pin.
final class PostgresPinnedReads: StoreReadPin, @unchecked Sendable {
    // Guarded by `lock` (hence `@unchecked Sendable`): one read at a time on the connection.
    private let lock = NSLock()
    private let connection: PooledConnection
    private weak var pool: PostgresConnectionPool?

    init(_ connection: PooledConnection, pool: PostgresConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    deinit {
        pool?.closeDedicatedConnection(connection)
    }

    func withConnection<T>(_ operation: String, _ body: (PooledConnection) throws -> T) throws -> T {
        do {
            return try lock.withLock { try body(connection) }
        } catch {
            throw PostgresErrors.storeError(error, during: operation, connectionLost: connection.isConnectionClosed)
        }
    }
}

extension PostgresStoreBackend {
    package func pinReads() throws -> (any StoreReadPin)? {
        let connection = try pool.openDedicatedConnection()
        let pinned = PostgresPinnedReads(connection, pool: pool)
        do {
            _ = try connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            _ = try connection.query("SELECT 1")
        } catch {
            throw PostgresErrors.storeError(error, during: "pinning a query generation", connectionLost: connection.isConnectionClosed)
        }
        return pinned
    }

    /// Runs a read on the connection of the current query generation's pin, or on one of the pool's.
    func reading<T>(_ operation: String, _ body: (PooledConnection) throws -> T) throws -> T {
        if let pinned = try readPin as? PostgresPinnedReads { return try pinned.withConnection(operation, body) }
        return try pool.withConnection(operation, retryingIfLost: true, body)
    }
}
#endif
