#if Postgres
package import Foundation
package import Logging
import OpenCoreData
package import PostgresNIO

/// A PostgreSQL store's connections: at most the URL's `pool` of them, opened when needed, lent
/// to one operation at a time, on the store's own event loops.
///
/// Synchronous, as the store's protocol is: ``withConnection(_:retryingIfLost:_:)`` blocks its
/// caller until a connection is free (up to the timeout) and the body has run. It uses
/// `PostgresConnection` and its future-based API rather than postgres-nio's `PostgresClient`,
/// which is async-only (see ``StoreEventLoops`` for why no task is waited on). A lock and a
/// condition are the whole pool: a handful of connections does not need more.
///
/// A connection that closes (the server restarted, the session was terminated) is dropped when
/// an operation finds it closed or fails on it, and the next operation opens a new one.
package final class PostgresConnectionPool: @unchecked Sendable {
    package let url: PostgresStoreURL
    package let loops: StoreEventLoops
    /// How long an operation waits for a free connection, and for a new one to connect.
    package let timeout: TimeInterval
    /// How each connection connects: what a connection of the store outside the pool (the
    /// commit listener's) connects with too.
    package let configuration: PostgresConnection.Configuration
    package let logger: Logger

    // Guarded by `condition` (hence `@unchecked Sendable`).
    private let condition = NSCondition()
    private var idle: [PooledConnection] = []
    /// Connections idle, lent or being opened: never more than `url.poolSize`.
    private var count = 0
    private var nextID = 1
    private var isClosed = false
    /// Connections outside the pool (``openDedicatedConnection()``), closed with it at the latest.
    private var dedicated: [ObjectIdentifier: PooledConnection] = [:]

    /// Makes the pool; opens no connection yet.
    ///
    /// - Parameters:
    ///   - url: The parsed store URL.
    ///   - timeout: How long an operation waits for a free connection or a new one.
    ///   - eventLoopThreads: The store's own event-loop threads.
    ///   - logger: Where postgres-nio logs; nothing by default.
    ///   - readOnly: Whether every connection starts with `default_transaction_read_only` on, so
    ///     that the server itself refuses writes (a read-only store's pool).
    /// - Throws: `PersistentStoreError.cannotOpen` when TLS cannot be set up.
    package init(url: PostgresStoreURL, timeout: TimeInterval, eventLoopThreads: Int = 2, logger: Logger? = nil,
                 readOnly: Bool = false) throws {
        self.url = url
        self.timeout = timeout
        self.logger = logger ?? Logger(label: "OpenCoreData.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try Self.tls(url))
        configuration.options.connectTimeout = .nanoseconds(Int64(max(timeout, 0.001) * 1_000_000_000))
        if readOnly {
            configuration.options.additionalStartupParameters = [("default_transaction_read_only", "on")]
        }
        self.configuration = configuration
        loops = StoreEventLoops(threads: eventLoopThreads)
    }

    deinit {
        // `close()` is the way to end a pool; a forgotten one is closed here, unless the last
        // reference went on one of its own loops, where closing would wait for itself.
        if !isClosed && !loops.isCurrentThreadAStoreLoop { close() }
    }

    /// The number of connections open, lent or being opened.
    package var connectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Runs `body` with a connection of its own, blocking until one is free.
    ///
    /// When `body` fails because the connection closed, the connection is dropped. With
    /// `retryingIfLost`, for work that may run twice (reads), it then runs `body` once more on a
    /// new connection: a connection that died while idle in the pool (the server restarted, the
    /// session was terminated) is only found out by using it.
    ///
    /// - Parameters:
    ///   - operation: What `body` does, for error messages ("a fetch").
    ///   - retryingIfLost: Whether `body` may run again on a new connection.
    ///   - body: The work; it waits for the connection with ``PooledConnection/query(_:)`` and
    ///     ``PooledConnection/wait(for:_:)``, which also end when the connection closes.
    /// - Throws: ``PersistentStoreError/calledOnStoreEventLoop`` on one of the store's loops;
    ///   ``PersistentStoreError/timeout`` when no connection became free in time;
    ///   `PersistentStoreError.cannotOpen` when a new connection fails; else what `body` threw,
    ///   PostgreSQL's errors as ``PersistentStoreError/postgresError`` or
    ///   ``PersistentStoreError/connectionLost``.
    package func withConnection<Result>(
        _ operation: String = "an operation", retryingIfLost: Bool = false,
        _ body: (PooledConnection) throws -> Result
    ) throws -> Result {
        try loops.refuseStoreLoopThread("A PostgreSQL store operation")
        let (connection, wasIdle) = try checkOut()
        do {
            let result = try body(connection)
            checkIn(connection, reusable: true)
            return result
        } catch {
            let lost = PostgresErrors.isConnectionLost(error) || connection.isConnectionClosed
            checkIn(connection, reusable: !lost)
            if lost && wasIdle && retryingIfLost {
                return try withConnection(operation, retryingIfLost: false, body)
            }
            throw PostgresErrors.storeError(error, during: operation, connectionLost: lost)
        }
    }

    /// Runs one statement and returns its rows.
    ///
    /// - Parameters:
    ///   - query: The statement, its values bound (`"SELECT \(value)::bigint"`).
    ///   - retryingIfLost: Whether the statement may run again on a new connection when the
    ///     pooled one turns out closed (reads).
    /// - Throws: As ``withConnection(_:retryingIfLost:_:)``.
    package func query(_ query: PostgresQuery, retryingIfLost: Bool = false) throws -> PostgresQueryResult {
        try withConnection("a query", retryingIfLost: retryingIfLost) { connection in
            try connection.query(query)
        }
    }

    /// Closes every connection and stops the store's event loops, after waiting (up to the
    /// timeout) for the operations that hold connections to end. Later operations throw
    /// `PersistentStoreError.noStore`.
    package func close() {
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            return
        }
        isClosed = true
        let connections = idle
        idle = []
        count -= connections.count
        let others = dedicated.values
        dedicated = [:]
        condition.broadcast()
        condition.unlock()
        for connection in connections { closeAndWait(connection) }
        for connection in others { closeAndWait(connection) }
        // Lent connections are closed as they come back (`checkIn`), which needs the loops.
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while count > 0 && condition.wait(until: deadline) {}
        condition.unlock()
        loops.shutDown()
    }

    // MARK: Lending

    /// A connection for one operation, and whether it was idle in the pool (as opposed to new).
    private func checkOut() throws -> (PooledConnection, wasIdle: Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw PersistentStoreError(PersistentStoreError.noStore, "The PostgreSQL store \(url.redacted) is closed.")
            }
            while let connection = idle.popLast() {
                if !connection.isConnectionClosed {
                    condition.unlock()
                    return (connection, true)
                }
                // Closed while idle (already closed: nothing to wait for): its slot is free again.
                count -= 1
            }
            if count < url.poolSize {
                count += 1
                let id = nextID
                nextID += 1
                condition.unlock()
                return (try open(id: id), false)
            }
            if !condition.wait(until: deadline) {
                let poolSize = url.poolSize
                condition.unlock()
                throw PersistentStoreError(
                    PersistentStoreError.timeout,
                    "No PostgreSQL connection became free within \(timeout) s: all \(poolSize) of the pool's "
                        + "connections were in use (raise the URL's pool option, or hold connections for less time).")
            }
        }
    }

    /// A connection outside the pool, for work that holds one for long (a query generation's
    /// transaction): it takes no place from the pool's lenders. Give it back with
    /// ``closeDedicatedConnection(_:)``; closing the pool closes it too.
    package func openDedicatedConnection() throws -> PooledConnection {
        try loops.refuseStoreLoopThread("Opening a PostgreSQL connection")
        condition.lock()
        if isClosed {
            condition.unlock()
            throw PersistentStoreError(PersistentStoreError.noStore, "The PostgreSQL store \(url.redacted) is closed.")
        }
        let id = nextID
        nextID += 1
        condition.unlock()
        let connection = PooledConnection(try Self.connect(url: url, configuration: configuration, loops: loops, id: id, logger: logger),
                                          loops: loops, logger: logger)
        condition.lock()
        dedicated[ObjectIdentifier(connection)] = connection
        condition.unlock()
        return connection
    }

    /// Closes a connection of ``openDedicatedConnection()`` without waiting (its last user may be
    /// on any thread); nothing if the pool closed it already.
    package func closeDedicatedConnection(_ connection: PooledConnection) {
        condition.lock()
        let wasOpen = dedicated.removeValue(forKey: ObjectIdentifier(connection)) != nil
        condition.unlock()
        guard wasOpen else { return }
        // The callback keeps the connection alive until it is closed, as postgres-nio requires.
        let postgres = connection.connection
        postgres.close().whenComplete { _ in _ = postgres }
    }

    private func open(id: Int) throws -> PooledConnection {
        do {
            let connection = try Self.connect(url: url, configuration: configuration, loops: loops, id: id, logger: logger)
            return PooledConnection(connection, loops: loops, logger: logger)
        } catch {
            condition.lock()
            count -= 1
            condition.broadcast()
            condition.unlock()
            throw error
        }
    }

    /// Opens one connection on `loops`, blocking until it is up.
    ///
    /// - Throws: `PersistentStoreError.cannotOpen` naming the server, user and database, or
    ///   ``PersistentStoreError/timeout``.
    package static func connect(url: PostgresStoreURL, configuration: PostgresConnection.Configuration, loops: StoreEventLoops,
                                id: Int, logger: Logger) throws -> PostgresConnection {
        do {
            return try loops.wait(
                for: PostgresConnection.connect(on: loops.group.next(), configuration: configuration, id: id, logger: logger),
                "Connecting to PostgreSQL")
        } catch {
            if let error = error as? PersistentStoreError { throw error }
            throw PersistentStoreError(
                PersistentStoreError.cannotOpen,
                "Cannot connect to PostgreSQL at \(url.host):\(url.port) (user '\(url.user)', database '\(url.database)', "
                    + "sslmode=\(url.tls.rawValue)): \(PostgresErrors.reason(error))")
        }
    }

    private func checkIn(_ connection: PooledConnection, reusable: Bool) {
        condition.lock()
        let keep = reusable && !isClosed && !connection.isConnectionClosed
        if keep {
            idle.append(connection)
        } else {
            count -= 1
        }
        // Both lenders waiting for a connection and `close()` waiting for the last one wait here.
        condition.broadcast()
        condition.unlock()
        if !keep { closeAndWait(connection) }
    }

    /// Closes a connection and waits until it is closed: postgres-nio asserts that a connection
    /// is closed before it is released.
    private func closeAndWait(_ connection: PooledConnection) {
        // A connection that is already closed, or fails to close cleanly, is closed all the same.
        _ = try? loops.wait(for: connection.connection.close(), "Closing a PostgreSQL connection")
    }

    private static func tls(_ url: PostgresStoreURL) throws -> PostgresConnection.Configuration.TLS {
        guard url.tls != .disable else { return .disable }
        do {
            let context = try NIOSSLContext(configuration: .makeClientConfiguration())
            return url.tls == .require ? .require(context) : .prefer(context)
        } catch {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "Cannot set up TLS for PostgreSQL (sslmode=\(url.tls.rawValue)): \(error)")
        }
    }
}
#endif
