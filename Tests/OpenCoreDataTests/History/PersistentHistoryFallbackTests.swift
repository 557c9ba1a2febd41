import FetchedResultsChecking
import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// The fallback when history cannot say what changed: a context refreshes its objects and its
/// controllers fetch once, each delivering one batch from what it showed to what the store holds,
/// then follow changes again.
@Suite struct PersistentHistoryFallbackTests {
    @Test(arguments: StoreKind.withPostgres, [false, true])
    func anExpiredTokenFallsBackToOneRefetchThenDeltas(kind: StoreKind, sectioned: Bool) throws {
        let stack = try HistoryStack(kind)
        for (index, name) in ["Argentina", "Brazil", "Chile", "Denmark", "Egypt"].enumerated() {
            try stack.insertTeam(name, zone: index < 3 ? "CONMEBOL" : "OTHER")
        }
        let viewer = stack.newContext()
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "teamName")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: viewer,
                                                  sectionNameKeyPath: sectioned ? "qualifyingZone" : nil, cacheName: nil)
        let classic = ClassicRecorder()
        let differences = DifferenceRecorder()
        try viewer.performAndWait {
            if sectioned { controller.delegate = classic } else { controller.delegate = differences }
            try controller.performFetch()
        }
        let shown = viewer.performAndWait { controller.contents }
        let firstShown = try #require(viewer.performAndWait { controller.fetchedObjects?.first { $0.teamName == "Argentina" } })
        let token = try stack.currentToken()

        // Another program (for the in-memory store, another context that the viewer does not
        // merge automatically) changes the store, and its history is gone before the viewer
        // reads it.
        let other = kind == .sqlite ? try stack.reopened() : stack
        try other.save { context in
            let teams = try context.all(Team.self, sortedBy: "teamName")
            context.delete(teams[1])
            teams[0].teamName = "Zambia"
            teams[3].qualifyingZone = "CONMEBOL"
            for name in ["Bolivia", "Finland"] {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = name == "Bolivia" ? "CONMEBOL" : "OTHER"
            }
        }
        _ = try other.run(.deleteHistory(before: try other.currentToken()))
        let error = historyError { _ = try stack.transactions(after: token) }
        #expect(error?.code == PersistentHistoryError.expiredToken)

        let current = try stack.currentToken()
        let followed = try viewer.performAndWait { try viewer.mergeHistory(after: token) }
        #expect(followed == current)
        // The context refreshed what it holds: a registered object shows the committed value.
        #expect(viewer.performAndWait { firstShown.teamName } == "Zambia")
        let fresh = try viewer.performAndWait { () throws -> [(name: String, ids: [ManagedObjectID])] in
            let teams = try viewer.fetch(request)
            return Dictionary(grouping: teams, by: \.qualifyingZone).sorted { $0.key < $1.key }
                .map { ($0.key, $0.value.map(\.objectID)) }
        }
        let contents = viewer.performAndWait { controller.contents }
        if sectioned {
            #expect(contents.map(\.name) == fresh.map(\.name))
            #expect(contents.map(\.ids) == fresh.map(\.ids))
            #expect(classic.batches.count == 1)
            let before = SimulatedList(shown.map { (name: $0.name, items: $0.ids) })
            let expected = SimulatedList(fresh.map { (name: $0.name, items: $0.ids) })
            let batch = try #require(classic.batches.first)
            for mapping in FetchedResultsBatchMapping.allCases {
                try before.verifyApplying(batch, mapping: mapping, moveRules: mapping == .uikitMoves ? .lenient : .strict,
                                          expected: expected) { $0 }
            }
        } else {
            let ids = fresh.flatMap(\.ids)
            #expect(contents.flatMap(\.ids) == ids)
            #expect(differences.differences.count == 1)
            let difference = try #require(differences.differences.first)
            #expect(shown.flatMap(\.ids).applying(difference) == ids)
        }

        // Then deltas again: the next commit is read from history, as one more batch.
        try other.save { context in
            let team = Team(context: context)
            team.teamName = "Ghana"
            team.qualifyingZone = "OTHER"
        }
        let next = try viewer.performAndWait { try viewer.mergeHistory(after: followed) }
        #expect(next == (try stack.currentToken()))
        #expect((sectioned ? classic.batches.count : differences.differences.count) == 2)
        let ghana = viewer.performAndWait { controller.fetchedObjects?.map(\.teamName) ?? [] }
        #expect(ghana.contains("Ghana"))
    }

    /// Writes no history records: a program that writes the file with SQL. The store's triggers
    /// count them in the generation, so a token from before them has expired, and a context that
    /// follows history falls back to one refetch that shows them.
    @Test(arguments: [
        "UPDATE Team SET teamName = 'Aardvark' WHERE teamName = 'Egypt'",
        "DELETE FROM Team WHERE teamName = 'Brazil'",
        "INSERT INTO Team (_pk, _entity, _version, teamName, qualifyingZone, wins) SELECT max(_pk) + 100, _entity, 1, 'Raw', 'AFC', 0 FROM Team",
    ])
    func aWriteWithoutHistoryFallsBackToOneRefetch(statement: String) throws {
        let stack = try HistoryStack(.sqlite)
        for name in ["Argentina", "Brazil", "Chile", "Denmark", "Egypt"] {
            try stack.insertTeam(name)
        }
        let viewer = stack.newContext()
        let request = Team.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: viewer,
                                                  sectionNameKeyPath: nil, cacheName: nil)
        let differences = DifferenceRecorder()
        try viewer.performAndWait {
            controller.delegate = differences
            try controller.performFetch()
        }
        let shown = viewer.performAndWait { controller.contents.flatMap(\.ids) }
        let token = try stack.currentToken()

        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write { db in try db.execute(sql: statement) }
        try queue.close()

        let followed = try viewer.performAndWait { try viewer.mergeHistory(after: token) }
        #expect(followed == (try stack.currentToken()))
        let fresh = try viewer.performAndWait { try viewer.fetch(request).map(\.objectID) }
        #expect(fresh != shown, "the statement changed nothing the controller shows")
        #expect(viewer.performAndWait { controller.contents.flatMap(\.ids) } == fresh)
        #expect(differences.differences.count == 1)
        let difference = try #require(differences.differences.first)
        #expect(shown.applying(difference) == fresh)
        // Nothing new since: following from the returned token merges nothing more.
        #expect(try viewer.performAndWait { try viewer.mergeHistory(after: followed) } == followed)
        #expect(differences.differences.count == 1)
    }
}
