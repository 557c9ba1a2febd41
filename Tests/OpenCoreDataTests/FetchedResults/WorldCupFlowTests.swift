import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The World Cup scoreboard (seed 004): teams sectioned by qualifying zone, sorted by zone, wins
/// (most first) and name; tapping a team adds a win and saves; a team of a new zone can be added;
/// the "worldCup" cache lets the next launch skip the fetch.
@Suite struct WorldCupFlowTests {
    /// The scoreboard screen: its controller, and the rows its table shows, kept up to date by
    /// applying each change batch with UIKit's rules.
    final class Scoreboard: @unchecked Sendable {
        let context: ManagedObjectContext
        let controller: FetchedResultsController<Team>
        let recorder = ClassicRecorder()
        var rows = SimulatedList<ManagedObjectID>()

        init(context: ManagedObjectContext, cacheName: String?) throws {
            self.context = context
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "wins", ascending: false),
                                       FetchSortDescriptor(key: "teamName")]
            request.fetchBatchSize = 20
            controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "qualifyingZone", cacheName: cacheName)
            controller.delegate = recorder
            try controller.performFetch()
            rows = Self.list(controller)
        }

        static func list(_ controller: AnyFetchedResultsController) -> SimulatedList<ManagedObjectID> {
            SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
        }

        /// What a fresh fetch shows.
        func fetched() throws -> SimulatedList<ManagedObjectID> {
            let teams = try context.fetch(controller.fetchRequest)
            return SimulatedList(Dictionary(grouping: teams, by: \.qualifyingZone).sorted { $0.key < $1.key }.map { zone, members in
                (name: zone, items: teams.filter { members.contains($0) }.map(\.objectID))
            })
        }

        /// Applies the batches heard since the last call to the table's rows and returns them.
        func applyBatches() throws -> [FetchedResultsChanges] {
            let batches = recorder.batches
            recorder.batches = []
            // A table holds objects, which keep their identity when their IDs become permanent.
            func current(_ id: ManagedObjectID) -> ManagedObjectID { context.object(with: id).objectID }
            for batch in batches {
                let seenNow = FetchedResultsChanges(sectionChanges: batch.sectionChanges, objectChanges: batch.objectChanges.map {
                    .init(type: $0.type, objectID: current($0.objectID), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
                })
                rows = try rows.map(current).verifyApplying(seenNow, mapping: .deleteAndInsert, expected: try fetched())
            }
            return batches
        }

        func tap(_ name: String) throws -> [FetchedResultsChanges] {
            let team = try #require(controller.fetchedObjects?.first { $0.teamName == name })
            team.wins += 1
            try context.save()
            return try applyBatches()
        }
    }

    private func names(_ batch: FetchedResultsChanges, in context: ManagedObjectContext) -> [String] {
        batch.sectionChanges.map { "section \($0.type) \($0.sectionIndex) \($0.name)" } + batch.objectChanges.map { change in
            let team = context.object(with: change.objectID) as? Team
            let from = change.indexPath.map { "[\($0.section),\($0.row)]" } ?? "-"
            let to = change.newIndexPath.map { "[\($0.section),\($0.row)]" } ?? "-"
            return "\(change.type) \(team?.teamName ?? "?") \(from)→\(to)"
        }
    }

    @Test func tappingAddingAndRelaunching() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let cacheName = "worldCup-\(UUID().uuidString)"
        defer { AnyFetchedResultsController.deleteCache(withName: cacheName) }
        let context = stack.newContext()
        try WorldCupData.seed(context)

        let afterTaps = try context.performAndWait { () throws -> [[String]] in
            let board = try Scoreboard(context: context, cacheName: cacheName)
            #expect(board.controller.sections?.map(\.name) == ["AFC", "CONMEBOL", "UEFA"])
            #expect(board.controller.sectionIndexTitles == ["A", "C", "U"])
            // Spain (1 win) reaches France (2): same place, an update. Again: Spain passes France.
            let first = try board.tap("Spain").map { names($0, in: context) }
            let second = try board.tap("Spain").map { names($0, in: context) }
            // Korea (0, after Japan by name) wins one: it moves ahead of Japan.
            let third = try board.tap("Korea").map { names($0, in: context) }
            return first + second + third
        }
        #expect(afterTaps == [["update Spain [2,2]→-"], ["move Spain [2,2]→[2,1]"], ["move Korea [0,1]→[0,0]"]])

        let added = try context.performAndWait { () throws -> [[String]] in
            let board = try Scoreboard(context: context, cacheName: cacheName)
            let team = Team(context: context)
            team.teamName = "Wenderland"
            team.qualifyingZone = "OFC"
            team.imageName = "wenderland-flag"
            try context.save()
            return try board.applyBatches().map { names($0, in: context) }
        }
        #expect(added == [["section insert 2 OFC", "insert Wenderland -→[2,0]"]])

        // The next launch: same request and cache name, no save since the cache was written.
        SectionCaches.writer().waitUntilIdle()
        let relaunched = try TestStack(.sqlite, directory: stack.directory, recordingSQL: true)
        let log = try #require(relaunched.log)
        let relaunchContext = relaunched.newContext()
        let (selects, sections, rows) = try relaunchContext.performAndWait { () throws -> ([String], [String], Int) in
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "wins", ascending: false),
                                       FetchSortDescriptor(key: "teamName")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: relaunchContext,
                                                      sectionNameKeyPath: "qualifyingZone", cacheName: cacheName)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            let selects = try log.selects { try controller.performFetch() }
            return (selects, controller.sections?.map(\.name) ?? [], controller.fetchedObjects?.count ?? 0)
        }
        #expect(sections == ["AFC", "CONMEBOL", "OFC", "UEFA"])
        #expect(rows == 8)
        // Only the store's generation is read: no fetch.
        #expect(selects.count == 1 && selects.allSatisfy { $0.contains("_ocd_metadata") }, "the cached launch read: \(selects)")
    }

    @Test func aSaveFromAnotherContextMakesTheCacheStale() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let cacheName = "worldCup-\(UUID().uuidString)"
        defer { AnyFetchedResultsController.deleteCache(withName: cacheName) }
        let context = stack.newContext()
        try WorldCupData.seed(context)
        try context.performAndWait { _ = try Scoreboard(context: context, cacheName: cacheName) }
        SectionCaches.writer().waitUntilIdle()
        let other = stack.newContext()
        try other.performAndWait {
            let team = Team(context: other)
            team.teamName = "Wenderland"
            team.qualifyingZone = "OFC"
            try other.save()
        }
        let log = try #require(stack.log)
        let fresh = stack.newContext()
        let (selects, sections) = try fresh.performAndWait { () throws -> ([String], [String]) in
            var board: Scoreboard?
            let selects = try log.selects { board = try Scoreboard(context: fresh, cacheName: cacheName) }
            return (selects, board?.controller.sections?.map(\.name) ?? [])
        }
        #expect(sections == ["AFC", "CONMEBOL", "OFC", "UEFA"])
        #expect(selects.contains { $0.contains("\"Team\"") })
    }
}
