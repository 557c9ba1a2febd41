import Foundation
import Logging
import OpenCoreData
import Testing

@Suite struct LoggingTests {
    @Test(arguments: [false, true])
    func sqlIsTracedWithValuesRedactedUnlessAsked(showsValues: Bool) throws {
        let capture = LogRecorder()
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
