#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// A save's `COMMIT`, and what the store does when the connection drops before PostgreSQL
/// answers it (Docs/PostgresStore.md, "A save", step 8): the transaction may or may not have
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
