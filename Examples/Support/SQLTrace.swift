import Foundation
public import Logging

/// The SQL statements a store runs, kept in order and optionally echoed as they run: what Core
/// Data's `-com.apple.CoreData.SQLDebug 1` shows, and how the Failed Banks seed proves that a
/// fetched results controller reads the IDs first and then one batch at a time.
///
/// Hand ``logger()`` to a store description, or the trace to ``ExampleStore/open(_:trace:)``; the
/// store logs each statement at trace level. An example tool's `--sql` echoes them to standard
/// error.
///
/// ```swift
/// let trace = SQLTrace()
/// let container = try RecipesStore.open(.file(url), trace: trace)
/// let selects = try trace.selects { try controller.performFetch() }
/// ```
public final class SQLTrace: @unchecked Sendable {
    // Statements arrive on the store's queues while tests read them from theirs.
    private let lock = NSLock()
    private var recorded: [String] = []
    private let echo: (@Sendable (String) -> Void)?

    /// A trace that keeps every statement, and passes each one to `echo` as it runs.
    public init(echo: (@Sendable (String) -> Void)? = nil) {
        self.echo = echo
    }

    /// Every statement so far, oldest first.
    public var statements: [String] {
        lock.withLock { recorded }
    }

    /// The SELECT statements so far.
    public var selects: [String] {
        statements.filter { $0.hasPrefix("SELECT") }
    }

    /// Forgets the statements so far.
    public func reset() {
        lock.withLock { recorded.removeAll() }
    }

    /// The SELECT statements `body` runs.
    public func selects(during body: () throws -> Void) rethrows -> [String] {
        reset()
        try body()
        return selects
    }

    /// A trace-level logger recording here, for ``PersistentStoreDescription/logger``.
    public func logger() -> Logger {
        var logger = Logger(label: "SQLTrace") { _ in Handler(trace: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func record(_ statement: String) {
        lock.withLock { recorded.append(statement) }
        echo?(statement)
    }

    /// Keeps trace-level messages only: the store logs its SQL there and its lifecycle above.
    private struct Handler: LogHandler {
        let trace: SQLTrace
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.level == .trace else { return }
            trace.record(event.message.description)
        }
    }
}
