import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Commits no context of a coordinator made (batch requests, other coordinators of the process,
/// SQL written around the library) reach its contexts that merge automatically, and through them
/// its controllers, as batches valid for a list; contexts that do not merge keep what they saw.
@Suite struct ChangeFeedTests {
    /// A controller of teams by wins (most first) on a context, and the rows it showed last.
    final class LiveTeams {
        let context: ManagedObjectContext
        let controller: FetchedResultsController<Team>
        let recorder = ClassicRecorder()
        private(set) var rows = SimulatedList<ManagedObjectID>()

        init(_ stack: HistoryStack, merging: Bool) throws {
            let context = stack.newContext()
            context.performAndWait {
                context.automaticallyMergesChangesFromParent = merging
                // Objects read stay loaded, so that what a context saw is what it holds.
                context.retainsRegisteredObjects = true
            }
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "teamName", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try context.performAndWait { try controller.performFetch() }
            self.context = context
            self.controller = controller
            rows = try freshRows()
        }

        func freshRows() throws -> SimulatedList<ManagedObjectID> {
            try context.performAndWait {
                let request = Team.fetchRequest()
                request.sortDescriptors = controller.fetchRequest.sortDescriptors
                return SimulatedList([(name: "", items: try context.fetch(request).map(\.objectID))])
            }
        }

        /// Applies the batches delivered since the last check to the rows shown then, with
        /// UIKit's rules; they must give a fresh fetch. Returns how many batches there were.
        @discardableResult
        func checkBatches(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
            let expected = try freshRows()
            let batches = context.performAndWait { recorder.batches }
            var current = rows
            for batch in batches {
                current = try current.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
            }
            #expect(current == expected, sourceLocation: sourceLocation)
            rows = expected
            context.performAndWait { recorder.batches = [] }
            return batches.count
        }

        func wins(of id: ManagedObjectID) throws -> Int16? {
            try context.performAndWait { (try context.existingObject(with: id) as? Team)?.wins }
        }
    }

    /// Waits until every commit so far has been queued to `stack`'s merging contexts, woken by
    /// the feed alone, then lets `contexts` merge.
    static func waitForCommits(_ stack: HistoryStack, _ lists: LiveTeams...) throws {
        let generation = try stack.coordinator.storeGeneration()
        let deadline = Date().addingTimeInterval(10)
        while stack.coordinator.generationGivenToContexts < generation {
            try #require(Date() < deadline, "commit \(generation) did not reach the contexts (at \(stack.coordinator.generationGivenToContexts))")
            Thread.sleep(forTimeInterval: 0.001)
        }
        for list in lists { list.context.performAndWait {} }
    }

    private func teams(_ stack: HistoryStack, count: Int) throws -> [ManagedObjectID] {
        try (0..<count).map { try stack.insertTeam("Team \($0)", wins: Int16($0 % 7)) }
    }

    @Test(arguments: StoreKind.withPostgres)
    func batchRequestsReachMergingContextsOnly(kind: StoreKind) throws {
        // In memory without history: batch requests of the coordinator need none.
        let stack = try HistoryStack(kind, tracking: kind != .inMemory)
        let ids = try teams(stack, count: 30)
        let merging = try LiveTeams(stack, merging: true)
        let still = try LiveTeams(stack, merging: false)
        let before = try still.wins(of: ids[2])

        let update = BatchUpdateRequest(entityName: "Team")
        update.predicate = try FetchPredicate(format: "wins < 3")
        update.propertiesToUpdate = ["wins": BatchUpdateExpression(key: "wins", .add, 10)]
        let writer = stack.newContext()
        try writer.performAndWait { _ = try writer.execute(update) }
        try Self.waitForCommits(stack, merging, still)
        #expect(try merging.checkBatches() == 1)
        #expect(try merging.wins(of: ids[2]) == 12)
        #expect(try still.wins(of: ids[2]) == before)
        #expect(still.context.performAndWait { still.recorder.batches.isEmpty })

        let delete = Team.fetchRequest()
        delete.predicate = try FetchPredicate(format: "wins == 5")
        try writer.performAndWait { _ = try writer.execute(BatchDeleteRequest(fetchRequest: delete)) }
        let insert = BatchInsertRequest(entityName: "Team", objects: [["teamName": "New", "qualifyingZone": "OFC", "wins": 4]])
        try writer.performAndWait { _ = try writer.execute(insert) }
        try Self.waitForCommits(stack, merging)
        #expect(try merging.checkBatches() == 2)
    }

    @Test(arguments: StoreKind.sqlStores)
    func savesOfAnotherCoordinatorReachThisOne(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let ids = try teams(stack, count: 20)
        let merging = try LiveTeams(stack, merging: true)
        let other = try stack.reopened()
        for round in 0..<5 {
            try other.save { context in
                let team = try #require(try context.existingObject(with: other.sameObject(ids[round * 3])) as? Team)
                team.wins = Int16(20 + round)
                context.delete(try context.existingObject(with: other.sameObject(ids[round * 3 + 1])))
                let added = Team(context: context)
                added.teamName = "Added \(round)"
                added.qualifyingZone = "AFC"
                added.wins = Int16(round)
            }
            try Self.waitForCommits(stack, merging)
            #expect(try merging.checkBatches() >= 1)
            #expect(try merging.wins(of: ids[round * 3]) == Int16(20 + round))
        }
    }

    @Test(arguments: StoreKind.sqlStores)
    func aCommitHistoryDoesNotCoverMakesControllersFetchOnce(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let ids = try teams(stack, count: 20)
        let merging = try LiveTeams(stack, merging: true)
        // A program that records no history: what it changed cannot be read back.
        let blind = try stack.reopened(tracking: false)
        try blind.save { context in
            (try context.existingObject(with: blind.sameObject(ids[0])) as? Team)?.wins = 50
            context.delete(try context.existingObject(with: blind.sameObject(ids[1])))
        }
        try Self.waitForCommits(stack, merging)
        #expect(try merging.checkBatches() == 1)
        #expect(try merging.wins(of: ids[0]) == 50)
    }

    @Test func theProcessReadsEachTransactionOnceWhateverItsCoordinatorsAndContexts() throws {
        let log = LogRecorder()
        let stack = try HistoryStack(.sqlite) { $0.logger = log.logger() }
        _ = try teams(stack, count: 5)
        // Three coordinators of this process on the store, each with two merging contexts.
        let readers = [stack, try stack.reopened { $0.logger = log.logger() }, try stack.reopened { $0.logger = log.logger() }]
        let lists = try readers.flatMap { reader in [try LiveTeams(reader, merging: true), try LiveTeams(reader, merging: true)] }
        let writer = try stack.reopened(tracking: true)
        log.reset()
        let commits = 12
        for round in 0..<commits {
            _ = try writer.insertTeam("Written \(round)", wins: Int16(round % 5))
            for reader in readers { try Self.waitForCommits(reader) }
        }
        for list in lists {
            list.context.performAndWait {}
            try list.checkBatches()
        }
        let historyReads = log.selects.filter { $0.contains("_ocd_history_transaction") }.count
        #expect(historyReads >= 1 && historyReads <= commits, "\(historyReads) reads of the history for \(commits) commits")
    }

    @Test func anIdleProcessDoesNotLookAtTheStore() throws {
        let stack = try HistoryStack(.sqlite)
        _ = try teams(stack, count: 3)
        let merging = try LiveTeams(stack, merging: true)
        let other = try stack.reopened()
        _ = try other.insertTeam("Woken", wins: 1)
        try Self.waitForCommits(stack, merging)
        // Whatever the commit's file events scheduled (a second look 20 ms on) is over by then.
        Thread.sleep(forTimeInterval: 0.2)
        let before = stack.coordinator.storeChangeFeedLooks
        #expect(before > 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(stack.coordinator.storeChangeFeedLooks == before, "the feed looked at the store while nothing was written")
    }

    @Test(arguments: StoreKind.sqlStores)
    func contextsMadeWhileCommitsArriveStayRight(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        _ = try teams(stack, count: 10)
        let other = try stack.reopened()
        var lists: [LiveTeams] = []
        for round in 0..<20 {
            _ = try other.insertTeam("Late \(round)", wins: Int16(round % 9))
            lists.append(try LiveTeams(stack, merging: true))
        }
        try Self.waitForCommits(stack, lists[0])
        for list in lists {
            list.context.performAndWait {}
            try list.checkBatches()
        }
    }
}

extension HistoryStack {
    /// This stack's ID for an object another stack on the same file named.
    func sameObject(_ id: ManagedObjectID) throws -> ManagedObjectID {
        try #require(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
    }
}
