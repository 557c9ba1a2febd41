import Logging

/// The loggers the library writes to. Configure output with `LoggingSystem.bootstrap`.
///
/// Store lifecycle goes to `OpenCoreData.store` at debug level; every SQL statement goes to
/// `OpenCoreData.sql` at trace level, with parameter values redacted unless the store
/// description asks for them (``PersistentStoreDescription/logsSQLParameterValues``).
enum Log {
    static let store = Logger(label: "OpenCoreData.store")
    static let sql = Logger(label: "OpenCoreData.sql")
    static let context = Logger(label: "OpenCoreData.context")
    /// Section cache files that cannot be written or removed (error level): the controller goes
    /// on without its cache.
    static let cache = Logger(label: "OpenCoreData.cache")
}
