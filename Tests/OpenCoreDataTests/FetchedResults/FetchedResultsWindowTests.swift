import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Live windows: with `fetchLimit` or `fetchOffset`, the controller keeps showing the rows a fresh
/// fetch shows. The edges follow what incremental query engines test for their limits (a row
/// pushed out by an insert, a refill when a row leaves, a reorder across the edge, none for a
/// reorder inside): each batch is checked as a set against the expected changes, applied with
/// UIKit's rules to the old rows, and compared with a fresh fetch (FetchedResultsClassificationTests.run).
@Suite struct FetchedResultsWindowTests {
    typealias Run = FetchedResultsClassificationTests

    /// a…e at ranks 10…50, shown three at a time.
    private static let fiveCards = ["a", "b", "c", "d", "e"].enumerated().map { CardSeed($0.element, rank: Int32(10 * ($0.offset + 1))) }
    private static let firstThree = (offset: 0, limit: 3)

    private static func expectValid(_ outcome: FetchedResultsClassificationTests.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.problems.isEmpty, "\(outcome.problems)", sourceLocation: sourceLocation)
        #expect(outcome.contentsMatchFetch, sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.withPostgres)
    func anInsertBeforeTheEndPushesTheLastRowOut(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { _, context in
            _ = Spec.insert(CardSeed("z", rank: 0), into: context)
        }
        #expect(outcome.changes == ["insert z -→[0,0]", "delete c [0,2]→-"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aDeletedRowIsReplacedByTheNextOne(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { cards, context in
            context.delete(try #require(cards["a"]))
        }
        #expect(outcome.changes == ["delete a [0,0]→-", "insert d -→[0,2]"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aRowThatStopsMatchingIsReplacedByTheNextOne(kind: StoreKind) throws {
        let outcome = try Run.run(kind, predicate: "visible == YES", window: Self.firstThree, Self.fiveCards) { cards, _ in
            cards["b"]?.visible = false
        }
        #expect(outcome.changes == ["delete b [0,1]→-", "insert d -→[0,2]"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aRowSortedPastTheEdgeLeavesAndTheNextOneEnters(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { cards, _ in
            cards["b"]?.rank = 45
        }
        #expect(outcome.changes == ["delete b [0,1]→-", "insert d -→[0,2]"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aRowSortedIntoTheWindowEntersAndPushesTheLastOneOut(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { cards, _ in
            cards["e"]?.rank = 15
        }
        #expect(outcome.changes == ["insert e -→[0,1]", "delete c [0,2]→-"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aReorderInsideTheWindowMovesWithoutRefilling(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { cards, _ in
            cards["a"]?.rank = 25
        }
        #expect(outcome.batches.count == 1)
        #expect(!outcome.changes.contains { $0.hasPrefix("insert") || $0.hasPrefix("delete") }, "\(outcome.changes)")
        #expect(outcome.changes.contains { $0.hasPrefix("move") }, "\(outcome.changes)")
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func changesAfterTheWindowReportNothing(kind: StoreKind) throws {
        // d is among the rows kept after the window, e too; neither comes into it.
        let outcome = try Run.run(kind, window: Self.firstThree, Self.fiveCards) { cards, context in
            cards["d"]?.rank = 55
            cards["e"]?.rank = 60
            _ = Spec.insert(CardSeed("y", rank: 70), into: context)
        }
        #expect(outcome.batches.isEmpty, "\(outcome.batches)")
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aChangeBeforeAnOffsetShiftsTheWindow(kind: StoreKind) throws {
        let ten = (0..<10).map { CardSeed("t\($0)", rank: Int32($0 + 10)) }
        let inserted = try Run.run(kind, window: (offset: 2, limit: 3), ten) { _, context in
            _ = Spec.insert(CardSeed("first", rank: 0), into: context)
        }
        #expect(inserted.changes == ["insert t1 -→[0,0]", "delete t4 [0,2]→-"])
        Self.expectValid(inserted)
        let deleted = try Run.run(kind, window: (offset: 2, limit: 3), ten) { cards, context in
            context.delete(try #require(cards["t0"]))
        }
        #expect(deleted.changes == ["delete t2 [0,0]→-", "insert t5 -→[0,2]"])
        Self.expectValid(deleted)
    }

    @Test(arguments: StoreKind.withPostgres)
    func anOffsetWithoutALimitKeepsTheRowsBeforeItOut(kind: StoreKind) throws {
        let outcome = try Run.run(kind, window: (offset: 2, limit: 0), Array(Self.fiveCards)) { cards, _ in
            cards["e"]?.rank = 5
        }
        // e and a now come before the offset: b is pulled in, e leaves.
        #expect(outcome.changes == ["insert b -→[0,0]", "delete e [0,2]→-"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func rowsTheControllerNeverReadRefillTheWindow(kind: StoreKind) throws {
        // The controller reads the window and 16 rows after it: taking 17 of those 18 out leaves
        // one, and the store gives the rest, from rows it never read.
        let seeds = (0..<40).map { CardSeed(String(format: "r%02d", $0), rank: Int32($0)) }
        let outcome = try Run.run(kind, window: (offset: 0, limit: 2), seeds) { cards, context in
            for number in 0..<17 { context.delete(try #require(cards[String(format: "r%02d", number)])) }
        }
        #expect(outcome.changes == ["delete r00 [0,0]→-", "delete r01 [0,1]→-", "insert r17 -→[0,0]", "insert r18 -→[0,1]"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aSectionPushedOutOfTheWindowIsDeleted(kind: StoreKind) throws {
        let seeds = [CardSeed("a1", deck: "A", rank: 1), CardSeed("a2", deck: "A", rank: 2),
                     CardSeed("b1", deck: "B", rank: 3), CardSeed("b2", deck: "B", rank: 4)]
        let pushed = try Run.run(kind, sectioned: true, window: Self.firstThree, seeds) { _, context in
            _ = Spec.insert(CardSeed("a0", deck: "A", rank: 0), into: context)
        }
        #expect(pushed.changes == ["insert a0 -→[0,0]", "delete b1 [1,0]→-", "section delete 1 B"])
        Self.expectValid(pushed)
        let pulled = try Run.run(kind, sectioned: true, window: (offset: 0, limit: 2), seeds) { cards, context in
            context.delete(try #require(cards["a2"]))
        }
        #expect(pulled.changes == ["delete a2 [0,1]→-", "insert b1 -→[1,0]", "section insert 1 B"])
        Self.expectValid(pulled)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aRowKeptAfterTheWindowHasNoIndexPath(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let cards = try Spec.seed(context, Self.fiveCards)
            let controller = try Spec.controller(context, window: Self.firstThree)
            try controller.performFetch()
            #expect(controller.indexPath(forObject: try #require(cards["c"])) == IndexPath(row: 2, section: 0))
            #expect(controller.indexPath(forObject: try #require(cards["d"])) == nil)
            #expect(controller.fetchedObjects?.map(\.title) == ["a", "b", "c"])
        }
    }

    // MARK: Paging

    /// Fetches `seeds` with the window `from`, sets the request's window to `to`, applies it and
    /// checks the batches it heard as ``FetchedResultsClassificationTests/run`` does.
    private static func page(_ kind: StoreKind, _ seeds: [CardSeed], from: (offset: Int, limit: Int), to: (offset: Int, limit: Int),
                             keepsWindow: Bool = true) throws -> FetchedResultsClassificationTests.Outcome {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        return try context.performAndWait {
            let cards = try Spec.seed(context, seeds)
            let controller = try Spec.controller(context, window: from)
            controller.keepsFetchWindow = keepsWindow
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let list = Spec.list(controller)
            controller.fetchRequest.fetchOffset = to.offset
            controller.fetchRequest.fetchLimit = to.limit
            try controller.applyFetchWindow()
            let names = Spec.names(cards.values)
            let expected = try Spec.fetchedList(controller.fetchRequest, sectionKey: nil, in: context)
            var outcome = FetchedResultsClassificationTests.Outcome()
            for batch in recorder.batches {
                outcome.batches.append(Spec.describe(batch, names: names))
                do {
                    try list.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: false, expected: expected) { names[$0] ?? "?" }
                } catch {
                    outcome.problems.append("\(error)")
                }
            }
            outcome.contentsMatchFetch = Spec.list(controller) == expected
            return outcome
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aLongerLimitInsertsTheRowsItAdds(kind: StoreKind) throws {
        let outcome = try Self.page(kind, Self.fiveCards, from: Self.firstThree, to: (offset: 0, limit: 5))
        #expect(outcome.changes == ["insert d -→[0,3]", "insert e -→[0,4]"])
        Self.expectValid(outcome)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aMovedOffsetDeletesTheRowsLeftBehindAndInsertsTheNewOnes(kind: StoreKind) throws {
        let moved = try Self.page(kind, Self.fiveCards, from: Self.firstThree, to: (offset: 2, limit: 3))
        #expect(moved.changes == ["delete a [0,0]→-", "delete b [0,1]→-", "insert d -→[0,1]", "insert e -→[0,2]"])
        Self.expectValid(moved)
        let shrunk = try Self.page(kind, Self.fiveCards, from: Self.firstThree, to: (offset: 0, limit: 1))
        #expect(shrunk.changes == ["delete b [0,1]→-", "delete c [0,2]→-"])
        Self.expectValid(shrunk)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aWindowWiderThanTheRowsKeptReadsTheRest(kind: StoreKind) throws {
        let seeds = (0..<40).map { CardSeed(String(format: "r%02d", $0), rank: Int32($0)) }
        let grown = try Self.page(kind, seeds, from: (offset: 0, limit: 2), to: (offset: 0, limit: 30))
        #expect(grown.changes == Set((2..<30).map { String(format: "insert r%02d -→[0,\($0)]", $0) }))
        Self.expectValid(grown)
        let unlimited = try Self.page(kind, seeds, from: (offset: 0, limit: 2), to: (offset: 35, limit: 0))
        #expect(unlimited.changes == Set(["delete r00 [0,0]→-", "delete r01 [0,1]→-"] + (35..<40).map { String(format: "insert r%02d -→[0,\($0 - 35)]", $0) }))
        Self.expectValid(unlimited)
    }

    @Test(arguments: StoreKind.withPostgres)
    func withoutALiveWindowAWindowChangeIsOneBatchFromAFreshFetch(kind: StoreKind) throws {
        let outcome = try Self.page(kind, Self.fiveCards, from: Self.firstThree, to: (offset: 1, limit: 3), keepsWindow: false)
        #expect(outcome.changes == ["delete a [0,0]→-", "insert d -→[0,2]"])
        Self.expectValid(outcome)
    }

    @Test func applyingAWindowBeforeFetchingThrows() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        try context.performAndWait {
            let controller = try Spec.controller(context, window: Self.firstThree)
            #expect(throws: FetchedResultsError.self) { try controller.applyFetchWindow() }
        }
    }

    // MARK: Another context's saves

    /// Single-row saves of another context, merged one at a time (as ocd-bench's scenario 12 does),
    /// a third of them to a row the window shows: rows leave past the rows kept after the window
    /// and come back, and each batch, applied with UIKit's rules, must give a fresh fetch's rows.
    @Test(arguments: StoreKind.withPostgres)
    func singleRowSavesOfAnotherContextKeepTheWindowExact(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let view = stack.newContext(), writer = stack.newContext()
        var generator = SplitMix64(seed: 17)
        let ids = try writer.performAndWait { () throws -> [ManagedObjectID] in
            let cards = (0..<120).map { Spec.insert(CardSeed("c\($0)", rank: Int32(generator.next() % 60)), into: writer) }
            try writer.save()
            return cards.map(\.objectID)
        }
        let recorder = ClassicRecorder()
        let controller = try view.performAndWait { () throws -> FetchedResultsController<Card> in
            let controller = try Spec.controller(view, window: (offset: 3, limit: 10))
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        func fetched() throws -> SimulatedList<ManagedObjectID> {
            SimulatedList([(name: "", items: try view.fetch(controller.fetchRequest).map(\.objectID))])
        }
        var list = try view.performAndWait { try fetched() }
        let saves = SaveCapture(observing: writer)
        for step in 0..<300 {
            let shown = view.performAndWait { controller.fetchedObjects?.map(\.objectID) ?? [] }
            let id = step % 3 == 0 && !shown.isEmpty ? shown[Int(generator.next() % UInt64(shown.count))]
                : ids[Int(generator.next() % UInt64(ids.count))]
            let rank = Int32(generator.next() % 60)
            try writer.performAndWait {
                try #require(try writer.existingObject(with: id) as? Card).rank = rank
                try writer.save()
            }
            let note = try #require(saves.last)
            try view.performAndWait {
                recorder.batches = []
                view.mergeChanges(fromContextDidSave: note)
                let expected = try fetched()
                for (number, batch) in recorder.batches.enumerated() {
                    list = number == recorder.batches.count - 1
                        ? try list.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: expected)
                        : try list.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
                }
                #expect(list == expected, "update \(step)")
                list = expected
            }
        }
    }
}

/// The last save notification of a context.
private final class SaveCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var notification: Notification?
    private var observer: (any NSObjectProtocol)?

    init(observing context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: context,
                                                          queue: nil) { [unowned self] note in lock.withLock { notification = note } }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var last: Notification? { lock.withLock { notification } }
}
