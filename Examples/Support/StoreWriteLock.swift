public import Foundation
public import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock that every process using the same store takes around a check and the save that
/// depends on it, so that no other writer comes between the two: seeding only an empty store,
/// adding a team only under a name nobody has.
///
/// A check made in one transaction and a save in the next (a count, then an insert) is not
/// atomic: two writers can both find no team named "Wenderland" and both insert one. Held
/// across both, this lock makes them one step for every writer that takes it.
///
/// Within a process, writers take turns in the order they asked (without blocking a thread).
/// Across processes, the lock is an `flock(2)` on a file beside the store
/// (`WorldCup.sqlite-writelock`), which works for every process on the machine, the only case
/// SQLite's own locking supports; the operating system releases it when a process dies, so a
/// crashed server leaves nothing to clean up. On a PostgreSQL store, whose servers may be on
/// several machines, it is the store's advisory lock `writelock`
/// (`withPostgresAdvisoryLock(named:)`), which the server releases when a process's session
/// ends. An in-memory store is private to its process and needs only the first part.
///
/// Only writers that take the lock are kept apart: code that saves without it can still come
/// between a check and its save.
///
/// ```swift
/// let lock = StoreWriteLock(storeURL: storeURL)
/// try await lock.withLock {
///     try await context.perform {
///         guard try context.count(for: request) == 0 else { return }
///         _ = Team(context: context)
///         try context.save()
///     }
/// }
/// ```
public final class StoreWriteLock: Sendable {
    /// The lock file, or nil when only the process's writers share the store, or when it is a
    /// PostgreSQL store.
    public let fileURL: URL?
    #if Postgres
    /// The PostgreSQL store whose advisory lock is taken.
    private let postgresStore: PersistentStore?
    #endif
    private let turns = TurnQueue()

    /// The lock of the SQLite store at `storeURL`, or of a store private to this process when nil.
    ///
    /// - Parameter storeURL: The SQLite file; the lock file is beside it, its name followed by
    ///   `-writelock`.
    public init(storeURL: URL?) {
        fileURL = storeURL.map { URL(fileURLWithPath: $0.path + "-writelock") }
        #if Postgres
        postgresStore = nil
        #endif
    }

    /// The lock of a loaded store: its file's for SQLite, its advisory lock for PostgreSQL, this
    /// process's alone for an in-memory store (or none).
    ///
    /// - Parameter store: The store, loaded.
    public convenience init(store: PersistentStore?) {
        #if Postgres
        if let store, store.type == .postgreSQL {
            self.init(postgresStore: store)
            return
        }
        #endif
        self.init(storeURL: store?.type == .sqlite ? store?.url : nil)
    }

    #if Postgres
    private init(postgresStore: PersistentStore) {
        fileURL = nil
        self.postgresStore = postgresStore
    }
    #endif

    /// Runs `body` holding the lock, and returns what it returns.
    ///
    /// Waits for this process's earlier writers, then for other processes' (polling the file
    /// lock every few milliseconds).
    ///
    /// - Throws: ``ToolError`` when the lock file cannot be opened or locked, or what `body`
    ///   throws; the lock is released either way.
    public func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await turns.wait()
        defer { turns.next() }
        #if Postgres
        if let postgresStore {
            return try await postgresStore.withPostgresAdvisoryLock(named: "writelock", body)
        }
        #endif
        guard let fileURL else { return try await body() }
        let descriptor = try await Self.lockFile(at: fileURL)
        // Closing the descriptor releases the lock.
        defer { close(descriptor) }
        return try await body()
    }

    private static func lockFile(at url: URL) async throws -> Int32 {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ToolError.failure("cannot open the store's lock file \(url.path): \(String(cString: strerror(errno)))")
        }
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                close(descriptor)
                throw ToolError.failure("cannot lock the store's lock file \(url.path): \(String(cString: strerror(error)))")
            }
            // Another process holds it, for one save: a few milliseconds.
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(16))
        }
        return descriptor
    }
}

/// Turns taken in the order asked, by suspending tasks rather than blocking threads.
private final class TurnQueue: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Returns once it is the caller's turn; call ``next()`` when done.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.taken else {
                    state.taken = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the caller's turn and gives it to the next waiting task.
    func next() {
        let following = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        following?.resume()
    }
}
