#if Postgres
import Foundation
import OpenCoreData
package import PostgresNIO

/// One of a pool's connections, lent to one operation at a time, and the only way that operation
/// waits for it.
///
/// postgres-nio hands a query to the connection's channel; if the channel has closed meanwhile
/// (the server ended the session between the pool's check and the write), the query is dropped
/// and its future never completes, so waiting for it alone would block forever. Here every wait
/// also ends when the connection closes, with ``PersistentStoreError/connectionLost``.
package final class PooledConnection: @unchecked Sendable {
    /// The connection, for postgres-nio's future-based calls; wait for them with
    /// ``wait(for:_:)``.
    package let connection: PostgresConnection
    private let loops: StoreEventLoops
    private let logger: Logger

    // Guarded by `lock` (hence `@unchecked Sendable`): the closing of the connection and the
    // wait in progress, at most one since the connection has one borrower at a time.
    private let lock = NSLock()
    private var isClosed = false
    private var failWait: (@Sendable (any Error) -> Void)?

    init(_ connection: PostgresConnection, loops: StoreEventLoops, logger: Logger) {
        self.connection = connection
        self.loops = loops
        self.logger = logger
        connection.closeFuture.whenComplete { [weak self] _ in self?.closed() }
    }

    /// Whether the connection is closed or closing.
    package var isConnectionClosed: Bool {
        lock.withLock { isClosed } || connection.isClosed
    }

    /// Runs one statement and returns its rows.
    ///
    /// - Throws: PostgreSQL's error, or ``PersistentStoreError/connectionLost``.
    package func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try wait(for: connection.query(query, logger: logger), "a query")
    }

    /// Blocks until `future` completes or the connection closes.
    ///
    /// - Throws: ``PersistentStoreError/calledOnStoreEventLoop`` on a store loop,
    ///   ``PersistentStoreError/connectionLost`` when the connection closes first, else the
    ///   future's error.
    package func wait<Value: Sendable>(for future: EventLoopFuture<Value>, _ operation: String) throws -> Value {
        let promise = connection.eventLoop.makePromise(of: Value.self)
        let lost = PersistentStoreError(
            PersistentStoreError.connectionLost, "The connection to PostgreSQL closed during \(operation).")
        let alreadyClosed = lock.withLock {
            if !isClosed { failWait = { _ in promise.fail(lost) } }
            return isClosed
        }
        // A promise completed twice keeps its first result: the later one is ignored.
        future.cascade(to: promise)
        if alreadyClosed { promise.fail(lost) }
        defer { lock.withLock { failWait = nil } }
        return try loops.wait(for: promise.futureResult, operation)
    }

    private func closed() {
        let fail = lock.withLock {
            isClosed = true
            defer { failWait = nil }
            return failWait
        }
        fail?(PersistentStoreError(PersistentStoreError.connectionLost, "The connection to PostgreSQL closed."))
    }
}
#endif
