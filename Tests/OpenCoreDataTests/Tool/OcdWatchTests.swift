import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// `ocd watch --json` in a process of its own follows the saves of this one: a `ready` line with
/// the controller's sections, then one `changes` line per save, each of which, applied with
/// UIKit's batch-update rules to the list so far, gives a fresh fetch's list.
@Suite struct OcdWatchTests {
    struct Line: Decodable {
        struct Section: Decodable { let name: String; let objects: [String] }
        struct SectionChange: Decodable { let type: String; let sectionIndex: Int; let name: String }
        struct ObjectChange: Decodable {
            let type: String
            let object: String
            let indexPath: [Int]?
            let newIndexPath: [Int]?
            let values: [String: JSONScalar]?
        }

        let event: String
        let sections: [Section]?
        let token: String?
        let sectionChanges: [SectionChange]?
        let objectChanges: [ObjectChange]?
    }

    static let sort = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "wins", ascending: false),
                       FetchSortDescriptor(key: "teamName")]

    /// Saves that insert, update in place, move within and across sections, add and empty
    /// sections, and delete.
    static let steps: [(String, @Sendable (ManagedObjectContext) throws -> Void)] = [
        ("insert a row", { context in
            let team = Team(context: context)
            team.teamName = "Chile"
            team.qualifyingZone = "CONMEBOL"
            team.wins = 4
        }),
        ("update in place", { context in try team("Japan", in: context).imageName = "japan.png" }),
        ("move within a section", { context in try team("Korea", in: context).wins = 10 }),
        ("insert a section", { context in
            let team = Team(context: context)
            team.teamName = "Ghana"
            team.qualifyingZone = "CAF"
        }),
        ("move across sections", { context in try team("Germany", in: context).qualifyingZone = "CAF" }),
        ("delete a row", { context in context.delete(try team("Spain", in: context)) }),
        ("delete a section", { context in
            context.delete(try team("Japan", in: context))
            context.delete(try team("Korea", in: context))
        }),
    ]

    @Test(.timeLimit(.hang), arguments: StoreKind.sqlStores)
    func jsonBatchesFollowAnotherProcessesSaves(_ kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let watch = try RunningTool(["watch", stack.storeArgument, "--entity", "Team", "--sort", "qualifyingZone,wins desc,teamName",
                                     "--section", "qualifyingZone", "--json"])
        defer { watch.stop() }
        let ready = try Self.decode(try await watch.waitForLines(1, timeout: .seconds(30))[0])
        #expect(ready.event == "ready")
        #expect(ready.token == (try stack.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))?.description)
        var list = try SimulatedList((ready.sections ?? []).map { section in
            (name: section.name, items: try section.objects.map { try Self.id($0, in: stack) })
        })
        #expect(list == (try Self.fresh(stack)))

        for (index, (name, step)) in Self.steps.enumerated() {
            let context = stack.newContext()
            try context.performAndWait {
                try step(context)
                try context.save()
            }
            let line = try Self.decode(try await watch.waitForLines(index + 2, timeout: .seconds(30))[index + 1])
            try #require(line.event == "changes", "\(name): \(line.event)")
            let expected = try Self.fresh(stack)
            list = try list.verifyApplying(try Self.changes(line, in: stack), mapping: .deleteAndInsert, expected: expected) { $0 }
            try Self.checkValues(line, in: stack)
        }
    }

    /// The text form: a line per change, with the object's values in the entity's order.
    @Test(.timeLimit(.hang))
    func textPrintsEachChange() async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let watch = try RunningTool(["watch", stack.storeURL.path, "--entity", "Team", "--sort", "qualifyingZone,wins desc,teamName",
                                     "--section", "qualifyingZone"])
        defer { watch.stop() }
        #expect(try await watch.waitForLines(4, timeout: .seconds(30))[0].hasPrefix("watching Team: 7 objects in 3 sections"))
        let context = stack.newContext()
        try context.performAndWait {
            try Self.steps[0].1(context)
            try context.save()
        }
        let lines = try await watch.waitForLines(6, timeout: .seconds(30))
        #expect(Array(lines[4...]) == [
            "changes",
            "  insert  [1,1]  Team/p8  teamName=Chile qualifyingZone=CONMEBOL imageName=nil wins=4 coach=nil",
        ])
    }

    /// The text form: a summary of the sections when ready.
    @Test func textStartsWithASummaryOfTheSections() async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let watch = try RunningTool(["watch", stack.storeURL.path, "--entity", "Team", "--sort", "qualifyingZone,teamName",
                                     "--section", "qualifyingZone", "--predicate", "wins > 0"])
        defer { watch.stop() }
        let lines = try await watch.waitForLines(3, timeout: .seconds(30))
        #expect(lines == [
            "watching Team: 5 objects in 2 sections; interrupt (Ctrl-C) to stop",
            "  section 0 \"CONMEBOL\": 2 objects",
            "  section 1 \"UEFA\": 3 objects",
        ])
    }

    private static func team(_ name: String, in context: ManagedObjectContext) throws -> Team {
        let request = Team.fetchRequest()
        request.predicate = try FetchPredicate(format: "teamName == %@", name)
        return try #require(try context.fetch(request).first)
    }

    private static func decode(_ line: String) throws -> Line {
        try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }

    /// What the watched controller should show now: a fresh fetch, sectioned by zone.
    private static func fresh(_ stack: TestStack) throws -> SimulatedList<ManagedObjectID> {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = Team.fetchRequest()
            request.sortDescriptors = sort
            let teams = try context.fetch(request)
            var sections: [(name: String, items: [ManagedObjectID])] = []
            for team in teams {
                if sections.last?.name != team.qualifyingZone { sections.append((team.qualifyingZone, [])) }
                sections[sections.count - 1].items.append(team.objectID)
            }
            return SimulatedList(sections)
        }
    }

    /// A batch line as the controller's changes, with object IDs read back from their URIs.
    private static func changes(_ line: Line, in stack: TestStack) throws -> FetchedResultsChanges {
        func path(_ pair: [Int]?) -> IndexPath? { pair.map { IndexPath(indexes: $0) } }
        func type(_ name: String) throws -> FetchedResultsChangeType {
            try #require([FetchedResultsChangeType.insert, .delete, .move, .update].first { "\($0)" == name }, "unknown change \(name)")
        }
        return FetchedResultsChanges(
            sectionChanges: try (line.sectionChanges ?? []).map { change in
                .init(type: try type(change.type), sectionIndex: change.sectionIndex, name: change.name)
            },
            objectChanges: try (line.objectChanges ?? []).map { change in
                .init(type: try type(change.type), objectID: try id(change.object, in: stack), indexPath: path(change.indexPath),
                      newIndexPath: path(change.newIndexPath))
            })
    }

    /// Each inserted, moved or updated object's values are the ones saved.
    private static func checkValues(_ line: Line, in stack: TestStack) throws {
        let context = stack.newContext()
        for change in line.objectChanges ?? [] where change.type != "delete" {
            let objectID = try id(change.object, in: stack)
            let expected = try context.performAndWait { OcdFetchTests.expectedValues(of: try context.existingObject(with: objectID)) }
            #expect(change.values == expected, "\(change.type) \(change.object)")
        }
    }

    private static func id(_ uri: String, in stack: TestStack) throws -> ManagedObjectID {
        let coordinator = stack.container.persistentStoreCoordinator
        return try #require(URL(string: uri).flatMap(coordinator.managedObjectID(forURIRepresentation:)), "not an object ID: \(uri)")
    }
}
