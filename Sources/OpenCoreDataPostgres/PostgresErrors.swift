#if Postgres
import OpenCoreData
import PostgresNIO

/// How postgres-nio's errors become the library's: `PSQLError`'s own description hides the
/// server's message (to keep data out of logs by default), so the parts worth showing are taken
/// from it here: the SQLSTATE, the server's message, detail and hint.
enum PostgresErrors {
    /// The error a failed operation throws: PostgreSQL's errors as a `PersistentStoreError`,
    /// any other error unchanged.
    ///
    /// - Parameters:
    ///   - error: What postgres-nio (or NIO) threw.
    ///   - operation: What was being done, for the message.
    ///   - connectionLost: Whether the connection was found closed after the error.
    static func storeError(_ error: any Error, during operation: String, connectionLost: Bool) -> any Error {
        if error is PersistentStoreError { return error }
        // Anything else a caller's body threw, on a connection still open, is the caller's own.
        guard error is PSQLError || connectionLost else { return error }
        let reason = self.reason(error)
        if connectionLost || isConnectionLost(error) {
            return PersistentStoreError(
                PersistentStoreError.connectionLost,
                "The connection to PostgreSQL closed during \(operation): \(reason)")
        }
        if (error as? PSQLError)?.serverInfo?[.sqlState] == "25006" {
            // read_only_sql_transaction: a read-only store's connections refuse every write.
            return PersistentStoreError(PersistentStoreError.readOnly, "The store is read-only; PostgreSQL refused \(operation): \(reason)")
        }
        return PersistentStoreError(PersistentStoreError.postgresError, "PostgreSQL failed \(operation): \(reason)")
    }

    /// Whether the error ended the connection, so that it must not go back to the pool.
    static func isConnectionLost(_ error: any Error) -> Bool {
        // Other errors (a value that does not decode, the caller's own) leave the connection as
        // it was; the pool also checks whether it is still open.
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .server:
            // FATAL and PANIC end the session (57P01 when it is terminated); ERROR does not.
            let severity = error.serverInfo?[.severity] ?? ""
            return severity == "FATAL" || severity == "PANIC"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError,
             .messageDecodingFailure, .unexpectedBackendMessage:
            return true
        default:
            return false
        }
    }

    /// A readable account of `error`, with the server's SQLSTATE and message when it sent them.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if error.code == .server, let info = error.serverInfo {
            var text = "\(info[.sqlState] ?? "?????") \(info[.message] ?? "(no message)")"
            if let detail = info[.detail] { text += " (\(detail))" }
            if let hint = info[.hint] { text += " Hint: \(hint)" }
            return text
        }
        if error.code == .sslUnsupported {
            return "the server does not offer TLS, and the URL says sslmode=require"
        }
        var text = "\(error.code)"
        if let underlying = error.underlying { text += ": \(underlying)" }
        return text
    }
}
#endif
