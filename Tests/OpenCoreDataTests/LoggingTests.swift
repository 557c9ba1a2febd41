import Foundation
import Logging
import OpenCoreData
import Testing

@Suite struct LoggingTests {
    /// Keeps every message a logger emits.
    final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(Logger.Level, String)] = []

        var messages: [(level: Logger.Level, text: String)] { lock.withLock { lines } }

        func append(_ level: Logger.Level, _ text: String) {
            lock.withLock { lines.append((level, text)) }
        }

        func logger() -> Logger {
            var logger = Logger(label: "test") { _ in Handler(capture: self) }
            logger.logLevel = .trace
            return logger
        }
    }

    struct Handler: LogHandler {
        let capture: Capture
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(event.level, event.message.description)
        }
    }

    @Test(arguments: [false, true])
    func sqlIsTracedWithValuesRedactedUnlessAsked(showsValues: Bool) throws {
        let capture = Capture()
        let directory = TemporaryDirectory()
        let container = PersistentContainer(name: "Logged", managedObjectModel: try Fixtures.model())
        let description = PersistentStoreDescription(url: directory.file("Logged.sqlite"))
        description.logger = capture.logger()
        description.logsSQLParameterValues = showsValues
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Secret Team Name"
            team.qualifyingZone = "UEFA"
            try context.save()
        }
        let messages = capture.messages
        let inserts = messages.filter { $0.text.contains("INSERT INTO \"Team\"") }
        #expect(!inserts.isEmpty)
        #expect(inserts.allSatisfy { $0.level == .trace })
        #expect(messages.contains { $0.text.contains("Secret Team Name") } == showsValues)
        #expect(messages.contains { $0.level == .debug && $0.text.contains("created store") })
        #expect(messages.contains { $0.level == .debug && $0.text.contains("loaded") })
    }
}
