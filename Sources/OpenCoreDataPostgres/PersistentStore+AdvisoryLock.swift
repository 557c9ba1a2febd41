#if Postgres
import Foundation
public import OpenCoreData
import PostgresNIO

extension PersistentStore {
    /// The first key of the store's advisory locks for apps ("OCD\u{1}"), beside the load lock's
    /// "OCD\0", so that they meet neither the store's own lock nor an app's one-key locks.
    static let appLockNamespace: Int32 = 0x4F43_4401

    /// Runs `body` while this process holds the PostgreSQL advisory lock `name` of the store's
    /// schema, so that a check and the save that depends on it are one step for every server
    /// that takes the same lock.
    ///
    /// A count in one transaction and an insert in the next are not atomic: two servers can
    /// both find no team named "Wenderland" and both add one. A uniqueness constraint is the
    /// first answer; where the rule is not one (a name unique without regard to case, seeding
    /// only an empty store), take this lock around the check and the save.
    ///
    /// The lock is `pg_advisory_lock` on a connection of its own, outside the store's pool, so
    /// that `body` fetches and saves as usual while it is held. Closing that connection releases
    /// it, so a server that dies holding it holds it no longer. Waiting for it holds no thread.
    /// Only code that takes the lock is kept out: a save without it can still come between.
    ///
    /// ```swift
    /// try await store.withPostgresAdvisoryLock(named: "teams") {
    ///     try await context.perform {
    ///         guard try context.count(for: request) == 0 else { return }
    ///         _ = Team(context: context)
    ///         try context.save()
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The lock's name; stores in other schemas have other locks of the same name.
    ///   - body: What runs holding the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``OpenCoreData/PersistentStoreError`` ``OpenCoreData/PersistentStoreError/unknownStoreType`` when the
    ///   store is not a PostgreSQL store, ``OpenCoreData/PersistentStoreError/cannotOpen`` when the lock's connection
    ///   cannot be made or the lock taken; or what `body` throws, with the lock released.
    public func withPostgresAdvisoryLock<T: Sendable>(named name: String, _ body: () async throws -> T) async throws -> T {
        guard let backend = backend as? PostgresStoreBackend else {
            throw PersistentStoreError(
                PersistentStoreError.unknownStoreType,
                "withPostgresAdvisoryLock(named:) needs a PostgreSQL store; this store is of type \(type.rawValue)")
        }
        let pool = backend.pool
        let connection = try await Self.lockedConnection(pool, key: pool.url.schema + "/" + name, name: name)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        // Ending the session releases the lock, even if the close itself fails.
        try? await connection.close()
        return try outcome.get()
    }

    private static func lockedConnection(_ pool: PostgresConnectionPool, key: String, name: String) async throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: pool.loops.group.next(), configuration: pool.configuration,
                                                              id: 0, logger: pool.logger)
        } catch {
            throw PersistentStoreError(
                PersistentStoreError.cannotOpen,
                "Cannot connect to PostgreSQL at \(pool.url.host):\(pool.url.port) to take the lock '\(name)': \(PostgresErrors.reason(error))")
        }
        do {
            _ = try await connection.query("SELECT pg_advisory_lock(\(appLockNamespace), hashtext(\(key)))", logger: pool.logger)
            return connection
        } catch {
            try? await connection.close()
            throw PersistentStoreError(
                PersistentStoreError.cannotOpen,
                "Cannot take the PostgreSQL advisory lock '\(name)': \(PostgresErrors.reason(error))")
        }
    }
}
#endif
