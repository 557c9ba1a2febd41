#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// The transaction of every write (saves and batch requests), its `COMMIT`, and what the store
/// does when the connection drops before PostgreSQL answers it (Docs/PostgresStore.md, "A save",
/// step 8): the transaction may or may not have
/// committed, so the store asks the server on another connection, by the transaction's ID read
/// before the `COMMIT` (`pg_xact_status`). Committed: the save succeeded, with the outcome it
/// built. Rolled back: nothing was saved. Never a half-saved store, and never a success claimed
/// for a save that was not written.
extension PostgresStoreBackend {
    /// A save written and not yet committed: its outcome, and its transaction's ID.
    struct WrittenSave {
        let outcome: SaveOutcome
        let transaction: String
    }

    /// What one attempt at a save came to.
    enum SaveAttempt {
        /// Committed, or declined (conflicts): the outcome.
        case done(SaveOutcome)
        /// The connection dropped at `COMMIT`: the outcome depends on the server's answer.
        case inDoubt(WrittenSave, reason: String)
    }

    /// Runs `write` in one READ COMMITTED transaction marked as the library's
    /// (`SET LOCAL ocd.saving`: the generation triggers leave the counting to it) and commits
    /// it, asking the server when the connection drops at `COMMIT`. Saves and batch requests
    /// alike: a run PostgreSQL refuses in a way the next run resolves (`23505`, `40P01`) runs
    /// again in a fresh transaction, at most ``saveAttempts`` times.
    ///
    /// - Parameters:
    ///   - operation: What the write does, for the pool's errors.
    ///   - write: The transaction's statements; it ends with ``recordCommit(history:info:_:loaded:)``.
    ///     An error it throws rolls the transaction back and is rethrown.
    /// - Returns: The outcome of the committed write, or the conflicts of a declined save.
    func writeTransaction(_ operation: String, _ write: (PooledConnection) throws -> WrittenSave) throws -> SaveOutcome {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let attempted = try pool.withConnection(operation) { connection -> SaveAttempt in
                    do {
                        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
                        let written: WrittenSave
                        do {
                            // For this transaction only: the generation triggers leave the
                            // counting to the library.
                            try connection.execute("SET LOCAL ocd.saving = 'on'")
                            written = try write(connection)
                        } catch {
                            // A closed connection has rolled back on the server already.
                            if !connection.isConnectionClosed { try? connection.execute("ROLLBACK") }
                            throw error
                        }
                        return try commit(written, connection)
                    } catch let declined as DeclinedSave {
                        return .done(declined.outcome)
                    } catch let error as PSQLError where Self.retriedStates.contains(error.serverInfo?[.sqlState] ?? "") {
                        throw RetriedSave(sqlState: error.serverInfo?[.sqlState] ?? "", reason: PostgresErrors.reason(error))
                    }
                }
                switch attempted {
                case .done(let outcome): return outcome
                case .inDoubt(let written, let reason): return try resolveInDoubt(written, reason: reason)
                }
            } catch let retried as RetriedSave {
                guard attempt < Self.saveAttempts else {
                    throw PersistentStoreError(
                        retried.sqlState == "23505" ? PersistentStoreError.constraintViolation : PersistentStoreError.saveFailed,
                        "PostgreSQL refused the save \(attempt) times: \(retried.reason). Nothing was saved",
                        url: errorURL)
                }
                log.debug("saving again after \(retried.reason)")
            }
        }
    }

    /// `unique_violation` and `deadlock_detected`.
    private static let retriedStates: Set<String> = ["23505", "40P01"]

    /// A save that found conflicts: the transaction rolls back and the outcome is returned.
    struct DeclinedSave: Error {
        let outcome: SaveOutcome
    }

    /// A save PostgreSQL refused in a way the next run resolves.
    private struct RetriedSave: Error {
        let sqlState: String
        let reason: String
    }

    /// Commits `written`, or reports it in doubt when the connection drops before the answer.
    func commit(_ written: WrittenSave, _ connection: PooledConnection) throws -> SaveAttempt {
        try commitHook?(connection)
        do {
            try connection.execute("COMMIT")
            return .done(written.outcome)
        } catch where PostgresErrors.isConnectionLost(error) || connection.isConnectionClosed {
            return .inDoubt(written, reason: PostgresErrors.reason(error))
        }
    }

    /// The outcome of a save whose `COMMIT` went unanswered: asked of the server on another
    /// connection, waiting (up to the store's timeout) while the server has not yet noticed
    /// that the saving session ended.
    ///
    /// - Throws: ``PersistentStoreError/connectionLost`` saying that nothing was saved when the
    ///   transaction rolled back, or that the outcome is unknown when the server cannot tell.
    func resolveInDoubt(_ written: WrittenSave, reason: String) throws -> SaveOutcome {
        let deadline = Date().addingTimeInterval(description.timeout)
        var status: String?
        do {
            while true {
                status = try pool.withConnection("asking whether a save committed", retryingIfLost: true) { connection in
                    try connection.query("SELECT pg_xact_status(\(written.transaction)::xid8)").first?.decode(String?.self)
                }
                guard status == "in progress", Date() < deadline else { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
        } catch {
            throw PersistentStoreError(
                PersistentStoreError.connectionLost,
                "The connection to PostgreSQL closed before it answered the save's COMMIT (\(reason)), and whether the save "
                    + "was written cannot be known now: \(PostgresErrors.reason(error)). Fetch the objects again to find out",
                url: errorURL)
        }
        switch status {
        case "committed":
            log.info("a save's connection closed at COMMIT, and PostgreSQL says transaction \(written.transaction) committed")
            return written.outcome
        case "aborted":
            throw PersistentStoreError(
                PersistentStoreError.connectionLost,
                "The connection to PostgreSQL closed before it answered the save's COMMIT (\(reason)); PostgreSQL rolled the "
                    + "transaction back: nothing was saved",
                url: errorURL)
        default:
            throw PersistentStoreError(
                PersistentStoreError.connectionLost,
                "The connection to PostgreSQL closed before it answered the save's COMMIT (\(reason)), and PostgreSQL cannot "
                    + "tell whether transaction \(written.transaction) committed (\(status ?? "no status")). Fetch the objects "
                    + "again to find out",
                url: errorURL)
        }
    }
}
#endif
