import Foundation
import Logging
import OpenCoreData

/// Keeps every message a store logs, so tests can count the SQL statements an operation runs.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(level: Logger.Level, text: String)] = []

    var messages: [(level: Logger.Level, text: String)] { lock.withLock { lines } }

    /// The SELECT statements logged so far.
    var selects: [String] { messages.map(\.text).filter { $0.hasPrefix("SELECT") } }

    func append(_ level: Logger.Level, _ text: String) {
        lock.withLock { lines.append((level, text)) }
    }

    func reset() {
        lock.withLock { lines.removeAll() }
    }

    /// A trace-level logger writing here.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The SELECTs `body` runs.
    func selects(during body: () throws -> Void) rethrows -> [String] {
        reset()
        try body()
        return selects
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(event.level, event.message.description)
        }
    }
}
