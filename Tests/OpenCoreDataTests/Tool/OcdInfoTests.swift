import Foundation
@testable import OpenCoreData
import Testing

/// `ocd info`: the store's identity, model hash, history size and each entity's object count,
/// as text and as JSON, equal to what the app's own model and coordinator say.
@Suite struct OcdInfoTests {
    struct Report: Decodable {
        struct Model: Decodable { let name: String?; let versionIdentifiers: [String]; let hash: String }
        struct History: Decodable { let transactions: Int; let changes: Int; let currentToken: String? }
        struct Entity: Decodable {
            struct Property: Decodable { let name: String; let type: String; let destination: String?; let isOptional: Bool }
            let name: String; let superentity: String?; let objects: Int; let properties: [Property]
        }
        let store: String; let identifier: String; let model: Model; let history: History; let entities: [Entity]
    }

    @Test(arguments: StoreKind.sqlStores)
    func jsonReportMatchesTheAppsView(_ kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        try StoredModelFixtures.seedOthers(stack.newContext())
        let context = stack.newContext()
        try context.performAndWait {
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "teamName == 'Korea'")
            for team in try context.fetch(request) { context.delete(team) }
            try context.save()
        }
        let report = try OcdToolRunner.decode(Report.self, from: try await OcdToolRunner.run(["info", stack.storeArgument, "--json"]))

        let model = stack.container.managedObjectModel
        let store = try #require(stack.container.persistentStoreCoordinator.persistentStores.first)
        // A PostgreSQL store's URL is shown as the store shows it, without a password.
        #expect(report.store == (kind == .sqlite ? stack.storeURL.path : store.url?.absoluteString))
        #expect(report.identifier == store.identifier)
        #expect(report.model.name == "Test")
        #expect(report.model.hash == ModelSchema(model: model).versionHash)
        #expect(report.history.transactions == 3)
        let history = try stack.newContext().performAndWait {
            try #require((try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)) as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction])
        }
        #expect(report.history.changes == history.reduce(0) { $0 + ($1.changes?.count ?? 0) })
        #expect(report.history.currentToken == history.last?.token.description)

        #expect(report.entities.map(\.name) == model.entities.map { $0.name ?? "" })
        for entity in model.entities {
            let reported = try #require(report.entities.first { $0.name == entity.name })
            let request = FetchRequest<ManagedObject>(entityName: entity.name ?? "")
            request.includesSubentities = false
            #expect(reported.objects == (try context.performAndWait { try context.count(for: request) }), "\(reported.name)")
            #expect(reported.superentity == entity.superentity?.name)
            #expect(reported.properties.map(\.name) == entity.properties.filter { !$0.isTransient }.map(\.name))
        }
        let team = try #require(report.entities.first { $0.name == "Team" })
        #expect(team.objects == WorldCupData.teams.count - 1)
        #expect(team.properties.first { $0.name == "wins" }?.type == "integer16")
        #expect(team.properties.first { $0.name == "players" }.map { [$0.type, $0.destination] } == ["to-many", "Player"])
        #expect(team.properties.first { $0.name == "imageName" }?.isOptional == true)
    }

    @Test func textReportNamesEachEntityWithItsCount() async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let result = try await OcdToolRunner.run(["info", stack.storeURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let hash = ModelSchema(model: stack.container.managedObjectModel).versionHash
        #expect(lines.contains("model       'Test', hash \(hash)"))
        #expect(lines.contains { $0.hasPrefix("history     1 transaction, ") })
        #expect(lines.contains("  Team: \(WorldCupData.teams.count) objects"))
        #expect(lines.contains("  Employee (a Person): 0 objects"))
        #expect(lines.contains { $0.hasPrefix("    wins ") && $0.contains("integer16") })
    }

    /// `ocd` opens the store read-only: the file and its log are unchanged while the app keeps
    /// the store open. (The `-shm` index is not compared: every reader records its read marks
    /// there.)
    @Test func readingTheStoreWritesNothing() async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let files = ["", "-wal"].map { stack.storeURL.path + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        for arguments in [["info"], ["fetch", "--entity", "Team"], ["history"]] {
            let result = try await OcdToolRunner.run([arguments[0], stack.storeURL.path] + arguments.dropFirst())
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before)
    }
}
