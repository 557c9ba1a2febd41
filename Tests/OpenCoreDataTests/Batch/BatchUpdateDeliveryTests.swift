import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// A batch update the store writes with one statement reaches the contexts that merge
/// automatically as the row by row update does: the same objects, changed keys and overwritten
/// values, so that a controller on such a context delivers the same batch, valid for a list.
@Suite struct BatchUpdateDeliveryTests {
    @Test(arguments: 0..<6)
    func controllersDeliverWhatTheRowByRowUpdateDelivers(sequence: Int) throws {
        let seed = 0x4445_4C56 &+ UInt64(sequence)
        let setBased = try Self.teams(seed: seed)
        let rowByRow = try Self.teams(seed: seed)
        let live = (try ChangeFeedTests.LiveTeams(setBased, merging: true), try ChangeFeedTests.LiveTeams(rowByRow, merging: true))
        var random = SplitMix64(seed: seed)
        for step in 0..<8 {
            let (predicate, properties) = Self.randomUpdate(using: &random)
            let text = "seed \(seed), step \(step): where \(predicate) set \(properties)"
            for (stack, rowByRow) in [(setBased, false), (rowByRow, true)] {
                let request = BatchUpdateRequest(entityName: "Team")
                request.predicate = try FetchPredicate(format: predicate)
                request.propertiesToUpdate = properties
                request.writesRowByRow = rowByRow
                let result = try #require(try stack.execute(request) as? BatchUpdateResult)
                #expect(result.wasSetBased == !rowByRow, "\(text)")
            }
            try ChangeFeedTests.waitForCommits(setBased, live.0)
            try ChangeFeedTests.waitForCommits(rowByRow, live.1)
            let batches = (Self.describe(live.0), Self.describe(live.1))
            #expect(batches.0 == batches.1, "\(text)")
            #expect(try live.0.checkBatches() == live.1.checkBatches(), "\(text)")
        }
    }

    /// A store of teams with wins from 0 to 19, made from a seed.
    private static func teams(seed: UInt64) throws -> HistoryStack {
        let stack = try HistoryStack(.sqlite)
        var random = SplitMix64(seed: seed)
        try stack.save { context in
            for index in 0..<40 {
                let team = Team(context: context)
                team.teamName = "Team \(index)"
                team.qualifyingZone = ["UEFA", "AFC", "CAF"][Int(random.next() % 3)]
                team.wins = Int16(random.next() % 20)
            }
        }
        return stack
    }

    private static func randomUpdate(using random: inout SplitMix64) -> (predicate: String, properties: [String: Any]) {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let predicate = pick(["wins < 5", "qualifyingZone == 'UEFA'", "wins BETWEEN {5, 12}", "teamName ENDSWITH '3'", "TRUEPREDICATE"])
        var properties: [String: Any] = [:]
        // Integer arithmetic and constants only: updates both paths can write.
        switch random.next() % 3 {
        case 0: properties["wins"] = BatchUpdateExpression(key: "wins", pick([.add, .subtract]), Double(pick([1, 3, 7])))
        case 1: properties["wins"] = Int16(pick([0, 10, 19]))
        default: properties["imageName"] = pick(["a.png", "b.png"])
        }
        if random.next() % 2 == 0 { properties["qualifyingZone"] = pick(["UEFA", "OFC"]) }
        return (predicate, properties)
    }

    /// The batches a controller delivered, by object name (the two stores' IDs differ).
    private static func describe(_ live: ChangeFeedTests.LiveTeams) -> [String] {
        live.context.performAndWait {
            live.recorder.batches.map { batch in
                batch.objectChanges.map { change in
                    "\(change.type) \(change.objectID.uriRepresentation().lastPathComponent) \(change.indexPath.map { "\($0)" } ?? "-") \(change.newIndexPath.map { "\($0)" } ?? "-")"
                }.joined(separator: "; ")
            }
        }
    }
}

/// A merged commit that changes the sort keys of a whole block of rows a controller never read
/// (a batch update of one section's rows): its search for the rows' new places stepped over the
/// block place by place at every step, quadratic in the block's size: 11 minutes for 20,000 rows
/// in a debug build, against 5 seconds now that it steps over the block at once.
@Suite struct BlockOfChangedRowsTests {
    @Test func aMergedBatchUpdateOfOneSectionIsPlacedInTime() throws {
        let stack = try HistoryStack(.sqlite)
        let rows: [[String: Any]] = (0..<24_000).map { index in
            ["teamName": "Team \(index)", "qualifyingZone": index < 20_000 ? "UEFA" : "AFC", "wins": index % 1000]
        }
        _ = try stack.execute(BatchInsertRequest(entityName: "Team", objects: rows))
        let context = stack.newContext()
        context.performAndWait { context.automaticallyMergesChangesFromParent = true }
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "wins", ascending: false),
                                   FetchSortDescriptor(key: "teamName")]
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        let recorder = ClassicRecorder()
        controller.delegate = recorder
        try context.performAndWait { try controller.performFetch() }

        let update = BatchUpdateRequest(entityName: "Team")
        update.predicate = try FetchPredicate(format: "qualifyingZone == 'UEFA'")
        update.propertiesToUpdate = ["wins": try BatchUpdateExpression(format: "wins + 7")]
        let start = Date()
        _ = try stack.execute(update)
        try ChangeFeedTests.waitForCommits(stack)
        context.performAndWait {}
        let elapsed = Date().timeIntervalSince(start)
        #expect(context.performAndWait { recorder.batches.count } == 1)
        #expect(context.performAndWait { recorder.batches.first?.objectChanges.count } == 20_000)
        // Seconds on the project's VM; the search that stepped place by place took 11 minutes.
        #expect(elapsed < 30, "the batch took \(elapsed) s")
    }
}
