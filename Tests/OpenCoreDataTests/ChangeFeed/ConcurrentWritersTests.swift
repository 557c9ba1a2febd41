import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Two other coordinators (as two other processes would) commit at full speed while a
/// controller whose rows are mostly faults merges their commits: its batches must stay valid and
/// its rows end as a fresh fetch sees them. Found by `ocd-bench --ingest` on PostgreSQL (the
/// scoreboard differed from a fresh fetch after every run; Docs/Benchmarks.md).
@Suite struct ConcurrentWritersTests {
    @Test(arguments: StoreKind.sqlStores)
    func aFaultingControllerEndsAsAFreshFetchWhileTwoWritersCommit(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let teamCount = 200
        let ids = try stack.save { context in
            let teams = (0..<teamCount).map { number -> Team in
                let team = Team(context: context)
                team.teamName = "Team \(number)"
                team.qualifyingZone = "UEFA"
                team.wins = Int16(number % 50)
                return team
            }
            try context.obtainPermanentIDs(for: teams)
            return teams.map(\.objectID)
        }
        let context = stack.newContext()
        context.performAndWait { context.automaticallyMergesChangesFromParent = true }
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "teamName")]
        // Rows stay faults until shown: a merge reads the rows it needs from the store.
        request.fetchBatchSize = 10
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let recorder = ClassicRecorder()
        controller.delegate = recorder
        let initial = try context.performAndWait {
            try controller.performFetch()
            return SimulatedList([(name: "", items: (controller.fetchedObjects.map { Array($0) } ?? []).map(\.objectID))])
        }

        let writers = try [stack.reopened(), stack.reopened()]
        let failures = LockedFailures()
        let group = DispatchGroup()
        for (number, writer) in writers.enumerated() {
            DispatchQueue.global().async(group: group) {
                var random = SystemRandomNumberGenerator()
                do {
                    for _ in 0..<60 {
                        try writer.save { writing in
                            // Disjoint teams: the writers never conflict.
                            for _ in 0..<5 {
                                let index = Int.random(in: 0..<(teamCount / 2), using: &random) * 2 + number
                                let id = ids[index]
                                guard let sameID = writer.coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()),
                                      let team = try writing.existingObject(with: sameID) as? Team else {
                                    failures.add("no team \(id)")
                                    continue
                                }
                                team.wins = Int16.random(in: 0..<50, using: &random)
                            }
                        }
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        group.wait()
        #expect(failures.all.isEmpty)
        try ChangeFeedTests.waitForCommits(stack)
        context.performAndWait {}

        let fresh = try context.performAndWait {
            SimulatedList([(name: "", items: try context.fetch(request).map(\.objectID))])
        }
        let shown = context.performAndWait { SimulatedList([(name: "", items: (controller.fetchedObjects.map { Array($0) } ?? []).map(\.objectID))]) }
        var applied = initial
        for batch in context.performAndWait({ recorder.batches }) {
            applied = try applied.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
        }
        // Known, not fixed yet (about half the runs on PostgreSQL, 1 of 8 on SQLite): a merge reads
        // the rows it needs "as this context has seen them", which takes back this process's
        // unmerged saves but not other processes' commits the context has not merged yet. So a
        // position search compares against values newer than the index it searches, and a row
        // can land one place off. The fix: read the history after the context's generation once
        // the rows are read, and put back the earliest prior values (Docs/PostgresStore.md,
        // "Known defect").
        withKnownIssue("rows read during a merge may include commits not merged yet", isIntermittent: true) {
            #expect(shown == fresh, "the controller's rows differ from a fresh fetch")
            #expect(applied == fresh, "the batches, applied to the first rows, differ from a fresh fetch")
        }
        #expect(shown.sections.first?.items.count == teamCount && applied.sections.first?.items.count == teamCount)
    }
}

/// Errors of the writer threads, for the test's thread to report.
private final class LockedFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var all: [String] { lock.withLock { failures } }
}
