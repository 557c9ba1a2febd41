import Foundation
import OpenCoreData
import Testing

/// The README's quick start, run as written except for where the store goes.
@Suite struct ReadmeTests {
    final class QuickStartTeam: ManagedObject {
        override class var entityName: String { "Team" }
        @Managed var teamName: String
        @Managed var qualifyingZone: String
        @Managed var wins: Int16 = 0
    }

    /// A container whose default directory is a temporary one.
    final class TemporaryContainer: PersistentContainer, @unchecked Sendable {
        nonisolated(unsafe) static var directory = URL(fileURLWithPath: "/nonexistent")
        override class func defaultDirectoryURL() -> URL { directory }
    }

    @Test func quickStart() throws {
        let directory = TemporaryDirectory()
        TemporaryContainer.directory = directory.url
        typealias Team = QuickStartTeam

        let container = try TemporaryContainer(name: "WorldCup", managedObjectClasses: [Team.self])
        try container.loadPersistentStores()
        #expect(FileManager.default.fileExists(atPath: directory.file("WorldCup/WorldCup.sqlite").path))

        let context = container.newBackgroundContext()
        let names = try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            team.wins += 1
            try context.save()

            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "qualifyingZone == %@ AND wins > %d", "CONMEBOL", 0)
            request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false)]
            return try context.fetch(request).map(\.teamName)
        }
        #expect(names == ["Brazil"])
    }

    @Test func defaultStoreLivesUnderTheUsersDataDirectory() throws {
        let container = PersistentContainer(name: "WorldCup", managedObjectModel: try Fixtures.model())
        let url = try #require(container.persistentStoreDescriptions.first?.url)
        #expect(url.path.hasSuffix("/WorldCup/WorldCup.sqlite"))
        let base = ProcessInfo.processInfo.environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        #expect(url.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
                == URL(fileURLWithPath: base).standardizedFileURL.path)
    }
}
