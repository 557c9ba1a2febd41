#if Postgres
import OpenCoreData
package import PostgresNIO

/// The event-loop threads of one PostgreSQL store, and the one way its synchronous calls wait
/// for them.
///
/// The store's protocol is synchronous, and postgres-nio is asynchronous. The bridge is
/// `EventLoopFuture.wait()`, never a Swift `Task` waited on: a task needs a cooperative-pool
/// thread to run, and the threads that wait may be exactly those (two `performAndWait` calls
/// from async code take both of a two-core machine's), so nothing would ever answer them.
/// Futures complete on event-loop threads, which the library never blocks. A store has loops of
/// its own, rather than NIO's shared singleton, so that an app blocking one of its loops cannot
/// stall the store; and a call made *on* one of the store's loops would wait for itself, so it
/// throws ``PersistentStoreError/calledOnStoreEventLoop`` instead.
package final class StoreEventLoops: Sendable {
    package let group: MultiThreadedEventLoopGroup

    package init(threads: Int) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
    }

    /// Whether the calling thread is one of this store's event loops.
    package var isCurrentThreadAStoreLoop: Bool {
        group.makeIterator().contains { $0.inEventLoop }
    }

    /// Throws when the calling thread is one of the store's loops, before anything waits.
    ///
    /// - Parameter operation: What was called, for the message.
    package func refuseStoreLoopThread(_ operation: String) throws {
        guard isCurrentThreadAStoreLoop else { return }
        throw PersistentStoreError(
            PersistentStoreError.calledOnStoreEventLoop,
            "\(operation) was called on one of the PostgreSQL store's own event-loop threads, "
                + "where waiting for the server would wait for itself; call the store from a "
                + "context's perform or any other thread")
    }

    /// Blocks the calling thread until `future` completes, and returns its value or throws its
    /// error.
    ///
    /// - Throws: ``PersistentStoreError/calledOnStoreEventLoop`` on a store loop; else the
    ///   future's error, unchanged.
    package func wait<Value: Sendable>(for future: EventLoopFuture<Value>, _ operation: String) throws -> Value {
        try refuseStoreLoopThread(operation)
        return try future.wait()
    }

    /// Stops the threads; call once, when nothing runs on them any more.
    package func shutDown() {
        // Fails only when already shut down, which leaves nothing to do.
        try? group.syncShutdownGracefully()
    }
}
#endif
