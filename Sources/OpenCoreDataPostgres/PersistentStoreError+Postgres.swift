#if Postgres
public import OpenCoreData

extension PersistentStoreError {
    /// A PostgreSQL store URL that cannot be used; the message names the part that is wrong (the
    /// scheme, host, port, user, database or a query option) and never repeats the password.
    ///
    /// The accepted form is `postgres://user:password@host:port/database?option=value&...`
    /// (or `postgresql://`), with the user, password and database percent-encoded, the port 5432
    /// when left out, and the options `sslmode` (`disable`, `prefer` or `require`), `pool` (the
    /// number of connections, 1 to 1,000) and `schema` (the PostgreSQL schema of the store).
    public static let invalidStoreURL = CoreDataErrorCode(140701, "invalidStoreURL")

    /// A PostgreSQL store was called from one of its own event-loop threads. Every store call
    /// waits for the server on such a thread, so a call made on one would wait for itself; it
    /// throws this instead of deadlocking. Call the store from a context's `perform`, or from any
    /// thread that is not the store's.
    public static let calledOnStoreEventLoop = CoreDataErrorCode(140702, "calledOnStoreEventLoop")

    /// PostgreSQL refused a statement; the message carries the server's SQLSTATE and message.
    public static let postgresError = CoreDataErrorCode(140703, "postgresError")

    /// The connection to PostgreSQL closed during an operation (the server restarted, the session
    /// was terminated, the network dropped). The pool replaces the connection for the next
    /// operation; whether the interrupted one took effect is said by the operation that reports it.
    public static let connectionLost = CoreDataErrorCode(140704, "connectionLost")

    /// No pooled connection became free within the store's timeout: as many operations as the
    /// pool has connections (the URL's `pool` option) held them for longer.
    /// Core Data's `NSPersistentStoreTimeoutError`.
    public static let timeout = CoreDataErrorCode(134090, "timeout")

    /// The PostgreSQL database does not store text as UTF-8, which the store needs to compare
    /// and keep strings as the library does; the message names the database's encoding.
    public static let unsupportedDatabaseEncoding = CoreDataErrorCode(140706, "unsupportedDatabaseEncoding")
}
#endif
