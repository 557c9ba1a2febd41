import Foundation
import Logging

/// A logger whose lines a test can read: the messages at `.info` and above, with their level.
final class RecordedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(level: Logger.Level, message: String)] = []

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "worldcup-test") { _ in Handler(log: self) }
    }

    /// The lines so far.
    var lines: [(level: Logger.Level, message: String)] {
        lock.withLock { recorded }
    }

    fileprivate func append(_ level: Logger.Level, _ message: String) {
        lock.withLock { recorded.append((level, message)) }
    }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(event.level, "\(event.message)")
        }
    }
}
