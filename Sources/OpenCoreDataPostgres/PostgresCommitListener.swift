#if Postgres
import Dispatch
import Foundation
import Logging
package import OpenCoreData
import PostgresNIO

/// How commits to a PostgreSQL store, by any server, wake this process's change feed: one
/// connection that `LISTEN`s on the store's channel, and a timer that catches up anyway.
///
/// Every commit of the library, and every statement of a program writing around it (the
/// generation triggers), sends one `NOTIFY` on the channel. A notification only wakes the feed,
/// which reads the generation and the history itself, so its payload is not trusted, and lost,
/// repeated or merged notifications cost latency at worst:
/// - The connection dropped (the server restarted, the network failed): notifications sent
///   meanwhile are gone. The listener reconnects (50 ms, doubling to 2 s between attempts),
///   listens again and then wakes the feed once, which reads every commit made before the
///   `LISTEN` from history; every later commit notifies.
/// - A notification lost while the connection stays up (none is known to happen): the timer
///   wakes the feed every `catchup` interval of the store URL (1 s by default); a wake that finds
///   the generation unchanged reads one row. So a commit reaches the feed at most one interval
///   after it is made, plus the catch-up.
///
/// The listener has its own connection (a `LISTEN` belongs to its session) on its own event-loop
/// thread, outside the store's pool: the feed it serves outlives any one coordinator's store.
final class PostgresCommitListener: StoreCommitWatch, @unchecked Sendable {
    private static let firstRetryDelay = 0.05
    private static let longestRetryDelay = 2.0

    private let url: PostgresStoreURL
    private let configuration: PostgresConnection.Configuration
    private let channel: String
    private let wake: @Sendable () -> Void
    private let log: Logger
    private let loops = StoreEventLoops(threads: 1)
    private let queue = DispatchQueue(label: "OpenCoreData.postgresCommitListener")
    private let timer: any DispatchSourceTimer

    // Guarded by `lock` (hence `@unchecked Sendable`).
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var isStopped = false
    private var retryDelay = PostgresCommitListener.firstRetryDelay
    private var connectionsMade = 0

    /// Starts listening on `channel` and the catch-up timer; `wake` runs on the listener's
    /// threads.
    init(url: PostgresStoreURL, configuration: PostgresConnection.Configuration, channel: String, log: Logger,
         wake: @escaping @Sendable () -> Void) {
        self.url = url
        var configuration = configuration
        // So that an operator (or a test) finds the session in `pg_stat_activity`.
        configuration.options.additionalStartupParameters.append(("application_name", "OpenCoreData listener \(channel)"))
        self.configuration = configuration
        self.channel = channel
        self.log = log
        self.wake = wake
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.nanoseconds(Int(url.catchUpInterval * 1_000_000_000))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler(handler: wake)
        timer.resume()
        queue.async { [self] in listen() }
    }

    var mayWakeBeforeCommitIsVisible: Bool { false }

    /// Nothing to do: a commit's `NOTIFY` is part of the commit.
    func committedHere() {}

    /// How many times the listener has connected and listened: a test's measure of reconnection.
    var connectionCount: Int { lock.withLock { connectionsMade } }

    func stop() {
        let connection = lock.withLock { () -> PostgresConnection? in
            isStopped = true
            defer { self.connection = nil }
            return self.connection
        }
        timer.cancel()
        // The queue may be connecting: once it has finished, it sees `isStopped`.
        queue.sync {}
        if let connection { _ = try? loops.wait(for: connection.close(), "Closing the commit listener's connection") }
        loops.shutDown()
    }

    /// Connects, listens and wakes the feed once; on failure tries again later. Runs on `queue`.
    private func listen() {
        guard !lock.withLock({ isStopped }) else { return }
        let connection: PostgresConnection
        do {
            connection = try PostgresConnectionPool.connect(url: url, configuration: configuration, loops: loops, id: 0, logger: log)
        } catch {
            log.warning("The commit listener of the PostgreSQL store \(url.redacted) cannot connect: \(error); trying again")
            retryLater()
            return
        }
        let wake = wake
        connection.addListener(channel: channel) { _, _ in wake() }
        do {
            // The `LISTEN` went out before this statement, on the same session: once it is
            // answered, every later commit notifies this session.
            _ = try PooledConnection(connection, loops: loops, logger: log).query("SELECT 1")
        } catch {
            log.warning("The commit listener of the PostgreSQL store \(url.redacted) cannot listen: \(error); trying again")
            _ = try? loops.wait(for: connection.close(), "Closing the commit listener's connection")
            retryLater()
            return
        }
        let kept = lock.withLock { () -> Bool in
            guard !isStopped else { return false }
            self.connection = connection
            retryDelay = Self.firstRetryDelay
            connectionsMade += 1
            return true
        }
        guard kept else {
            _ = try? loops.wait(for: connection.close(), "Closing the commit listener's connection")
            return
        }
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(connection) }
        // Commits made while no session listened (before the first, or while reconnecting) are
        // read now.
        wake()
    }

    private func connectionClosed(_ closed: PostgresConnection) {
        let reconnect = lock.withLock { () -> Bool in
            guard connection === closed else { return false }
            connection = nil
            return !isStopped
        }
        guard reconnect else { return }
        log.info("The commit listener of the PostgreSQL store \(url.redacted) lost its connection; reconnecting")
        retryLater()
    }

    private func retryLater() {
        let delay = lock.withLock { () -> Double in
            defer { retryDelay = min(retryDelay * 2, Self.longestRetryDelay) }
            return retryDelay
        }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.listen() }
    }
}

extension PostgresStoreBackend: StoreCommitWatching {
    package func watchCommits(_ wake: @escaping @Sendable () -> Void) -> (any StoreCommitWatch)? {
        guard let loaded = try? loaded else { return nil }
        return PostgresCommitListener(
            url: url, configuration: pool.configuration,
            channel: PostgresHistorySchema.channel(storeIdentifier: loaded.identifier), log: log, wake: wake)
    }
}
#endif
