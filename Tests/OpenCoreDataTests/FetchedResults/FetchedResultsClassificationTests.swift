import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// FRC-SPEC section 6: how a change batch is classified, end to end through a real controller.
/// Each batch is compared, as a set, with the golden changes, and applied with UIKit's rules by
/// the batch-update simulator (CHG-11: deletes and sources in the old frame, inserts,
/// destinations and new index paths in the new one) to check it turns the old rows into a fresh
/// fetch's rows.
@Suite struct FetchedResultsClassificationTests {
    /// What one change made to a controller's cards gave.
    struct Outcome {
        /// The batches, as `"move b [0,1]→[0,0]"` strings.
        var batches: [Set<String>] = []
        /// The simulator's objections, for both consumer mappings; empty when the batches apply.
        var problems: [String] = []
        /// Whether the controller's contents equal a fresh fetch after the change.
        var contentsMatchFetch = false

        var changes: Set<String> { batches.count == 1 ? batches[0] : ["\(batches.count) batches: \(batches)"] }
    }

    /// Seeds cards, fetches them (sectioned by deck, or not), runs `change` on them by title,
    /// processes pending changes, and checks the batches it heard.
    /// With `window`, the request has that `fetchOffset` and `fetchLimit`.
    static func run(_ kind: StoreKind, sectioned: Bool = false, predicate: String? = nil, window: (offset: Int, limit: Int)? = nil,
                    _ seeds: [CardSeed], allowingMovesInPlace: Bool = false,
                    change: (_ cards: [String: Card], _ context: ManagedObjectContext) throws -> Void) throws -> Outcome {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        return try context.performAndWait {
            let cards = try Spec.seed(context, seeds)
            let controller = try Spec.controller(context, sectioned: sectioned, predicate: predicate, window: window)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            var list = Spec.list(controller)
            try change(cards, context)
            context.processPendingChanges()
            let inserted = context.insertedObjects.compactMap { $0 as? Card }
            let names = Spec.names(Array(cards.values) + inserted)
            let expected = try Spec.fetchedList(controller.fetchRequest, sectionKey: sectioned ? "deck" : nil, in: context)
            var outcome = Outcome()
            for (number, batch) in recorder.batches.enumerated() {
                outcome.batches.append(Spec.describe(batch, names: names))
                let isLast = number == recorder.batches.count - 1
                func item(_ id: ManagedObjectID) -> String { names[id] ?? "?" }
                do {
                    let next = isLast
                        ? try list.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: allowingMovesInPlace,
                                                  expected: expected, item: item)
                        : try list.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: allowingMovesInPlace,
                                                          item: item))
                    if isLast {
                        try list.verifyApplying(batch, mapping: .uikitMoves, moveRules: .lenient, allowingMovesInPlace: allowingMovesInPlace,
                                                expected: expected, item: item)
                    }
                    list = next
                } catch {
                    outcome.problems.append("\(error)")
                }
            }
            outcome.contentsMatchFetch = Spec.list(controller) == expected
            return outcome
        }
    }

    private static let abc = [CardSeed("a", rank: 10), CardSeed("b", rank: 20), CardSeed("c", rank: 30)]

    // MARK: Golden cases

    // CHG-07: swapping the sort keys of two adjacent rows is one move and one update.
    @Test(arguments: StoreKind.withPostgres)
    func swappingTwoRowsMovesOneAndUpdatesTheOther(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { cards, _ in
            cards["a"]?.rank = 20
            cards["b"]?.rank = 10
        }
        #expect(outcome.changes == ["move b [0,1]→[0,0]", "update a [0,0]→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-07: deleting the first row and bumping every later sort index is one delete and updates.
    @Test(arguments: StoreKind.withPostgres)
    func deletingTheFirstRowAndBumpingTheRestIsADeleteAndUpdates(kind: StoreKind) throws {
        let seeds = (0..<4).map { CardSeed("r\($0)", rank: Int32($0)) }
        let outcome = try Self.run(kind, seeds) { cards, context in
            context.delete(try #require(cards["r0"]))
            for index in 1..<4 { cards["r\(index)"]?.rank -= 1 }
        }
        #expect(outcome.changes == ["delete r0 [0,0]→-", "update r1 [0,1]→[0,0]", "update r2 [0,2]→[0,1]", "update r3 [0,3]→[0,2]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-12, SEC-07: a row moving into a section the batch creates: a section insert and a move.
    @Test(arguments: StoreKind.withPostgres)
    func aRowMovingIntoANewSectionInsertsTheSection(kind: StoreKind) throws {
        let seeds = [CardSeed("a1", deck: "A", rank: 1), CardSeed("a2", deck: "A", rank: 2), CardSeed("b1", deck: "B", rank: 1)]
        let outcome = try Self.run(kind, sectioned: true, seeds) { cards, _ in
            cards["a2"]?.deck = "AB"
        }
        #expect(outcome.changes == ["section insert 1 AB", "move a2 [0,1]→[1,0]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-12, SEC-07: the last row leaving a section: a section delete and a move out of it.
    @Test(arguments: StoreKind.withPostgres)
    func theLastRowLeavingASectionDeletesTheSection(kind: StoreKind) throws {
        let seeds = [CardSeed("a1", deck: "A", rank: 1), CardSeed("b1", deck: "B", rank: 1), CardSeed("c1", deck: "C", rank: 1)]
        let outcome = try Self.run(kind, sectioned: true, seeds) { cards, _ in
            cards["b1"]?.deck = "C"
            cards["b1"]?.rank = 9
        }
        #expect(outcome.changes == ["section delete 1 B", "move b1 [1,0]→[1,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-12: leaving a deleted section for the same numbers in the next one is a real move.
    @Test(arguments: StoreKind.withPostgres)
    func aRowLeavingADeletedSectionForTheSameNumbersIsAMove(kind: StoreKind) throws {
        let seeds = [CardSeed("a1", deck: "A", rank: 1), CardSeed("b1", deck: "B", rank: 1), CardSeed("c1", deck: "C", rank: 1)]
        let outcome = try Self.run(kind, sectioned: true, seeds) { cards, _ in
            cards["b1"]?.deck = "C"
            cards["b1"]?.rank = 0
        }
        #expect(outcome.changes == ["section delete 1 B", "move b1 [1,0]→[1,0]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-12, UIK-04: UIKit's moveRow out of a deleted section is refused; the delete-and-insert
    // mapping (checked by run(_:)) is the one that works.
    @Test func aMoveOutOfADeletedSectionNeedsTheDeleteAndInsertMapping() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let (before, batch, expected) = try context.performAndWait {
            () throws -> (SimulatedList<ManagedObjectID>, FetchedResultsChanges, SimulatedList<ManagedObjectID>) in
            let cards = try Spec.seed(context, [CardSeed("a1", deck: "A", rank: 1), CardSeed("b1", deck: "B", rank: 1)])
            let controller = try Spec.controller(context, sectioned: true)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let before = SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
            cards["b1"]?.deck = "A"
            context.processPendingChanges()
            return (before, try #require(recorder.batches.first), SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) }))
        }
        #expect(throws: BatchUpdateError.self) { try before.verifyApplying(batch, mapping: .uikitMoves, moveRules: .strict, expected: expected) }
        #expect(throws: Never.self) { try before.verifyApplying(batch, mapping: .deleteAndInsert, expected: expected) }
    }

    // CHG-09: an update carries its old index path and its shifted new one.
    @Test(arguments: StoreKind.withPostgres)
    func anUpdateWithShiftedRowsCarriesBothIndexPaths(kind: StoreKind) throws {
        let seeds = (0..<3).map { CardSeed("x\($0)", rank: Int32($0)) }
        let outcome = try Self.run(kind, seeds) { cards, context in
            context.delete(try #require(cards["x0"]))
            cards["x2"]?.note = "changed"
        }
        #expect(outcome.changes == ["delete x0 [0,0]→-", "update x2 [0,2]→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // MARK: Inserts, deletes, updates

    // CHG-01
    @Test(arguments: StoreKind.withPostgres)
    func anInsertHasOnlyANewIndexPath(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { _, context in
            _ = Spec.insert(CardSeed("n", rank: 15), into: context)
        }
        #expect(outcome.changes == ["insert n -→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    // CHG-02
    @Test(arguments: StoreKind.withPostgres)
    func aDeleteHasOnlyItsOldIndexPath(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { cards, context in
            context.delete(try #require(cards["b"]))
        }
        #expect(outcome.changes == ["delete b [0,1]→-"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    // CHG-03: an update that stops matching is a delete; one that starts matching is an insert.
    @Test(arguments: StoreKind.withPostgres)
    func updatesThatChangeWhetherAnObjectMatchesAreDeletesAndInserts(kind: StoreKind) throws {
        let seeds = Self.abc + [CardSeed("h", rank: 25, visible: false)]
        let outcome = try Self.run(kind, predicate: "visible == YES", seeds) { cards, _ in
            cards["a"]?.visible = false
            cards["h"]?.visible = true
        }
        #expect(outcome.changes == ["delete a [0,0]→-", "insert h -→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-03: one change per object: an object inserted and changed in the same batch is an
    // insert; one inserted and deleted is nothing at all.
    @Test(arguments: StoreKind.withPostgres)
    func anObjectIsReportedOncePerBatch(kind: StoreKind) throws {
        var held: Card?
        let outcome = try Self.run(kind, Self.abc) { _, context in
            let card = Spec.insert(CardSeed("n", rank: 40), into: context)
            card.rank = 5
            card.note = "changed"
            let gone = Spec.insert(CardSeed("gone", rank: 1), into: context)
            context.delete(gone)
            held = card
        }
        #expect(outcome.changes == ["insert n -→[0,0]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        withExtendedLifetime(held) {}
    }

    // CHG-04 (parity): changes are classified with the request's current predicate, even before
    // a new fetch; rows already shown stay.
    @Test(arguments: StoreKind.withPostgres)
    func changesAreClassifiedWithTheRequestsCurrentPredicate(kind: StoreKind) throws {
        let (calls, layout) = try Self.runFetched(kind) { controller, context in
            controller.fetchRequest.predicate = try FetchPredicate(format: "rank >= 100")
            let big = Spec.insert(CardSeed("big", rank: 100), into: context)
            let small = Spec.insert(CardSeed("small", rank: 1), into: context)
            defer { withExtendedLifetime((big, small)) {} }
            context.processPendingChanges()
        }
        #expect(calls == ["will", "insert big -→[0,3]", "did"])
        #expect(layout == [": a b c big"])
    }

    /// The predicate is read again after batches classified with an earlier one: a controller
    /// keeps the predicate it resolved only while the request's stays the same.
    @Test(arguments: StoreKind.withPostgres)
    func aPredicateChangedBetweenBatchesClassifiesTheNextOne(kind: StoreKind) throws {
        let (calls, layout) = try Self.runFetched(kind) { controller, context in
            let first = Spec.insert(CardSeed("first", rank: 50), into: context)
            context.processPendingChanges()
            controller.fetchRequest.predicate = try FetchPredicate(format: "rank >= 100")
            let big = Spec.insert(CardSeed("big", rank: 100), into: context)
            let small = Spec.insert(CardSeed("small", rank: 1), into: context)
            defer { withExtendedLifetime((first, big, small)) {} }
            context.processPendingChanges()
            controller.fetchRequest.predicate = nil
            first.note = "seen again"
            small.note = "seen"
            context.processPendingChanges()
        }
        #expect(calls == ["will", "insert first -→[0,3]", "did",
                          "will", "insert big -→[0,4]", "did",
                          "will", "insert small -→[0,0]", "update first [0,3]→[0,4]", "did"])
        #expect(layout == [": small a b c first big"])
    }

    /// Runs `body` on the queue of a context seeded with `abc`, with a fetched controller whose
    /// delegate logs its calls; returns the calls and the controller's rows after it.
    private static func runFetched(_ kind: StoreKind,
                                   _ body: (FetchedResultsController<Card>, ManagedObjectContext) throws -> Void) throws -> ([String], [String]) {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, abc)
        return try context.performAndWait { () throws -> ([String], [String]) in
            let controller = try Spec.controller(context)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            try body(controller, context)
            return (log.log, Spec.layout(controller))
        }
    }

    // CHG-05, CHG-09: a change to an attribute no sort or section key reads is an update, with
    // its index path as both old and new.
    @Test(arguments: StoreKind.withPostgres)
    func aDisplayOnlyChangeIsAnUpdate(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { cards, _ in
            cards["b"]?.note = "changed"
        }
        #expect(outcome.changes == ["update b [0,1]→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    // CHG-05, CHG-10: a sort key change that reorders is a move, which implies the update.
    @Test(arguments: StoreKind.withPostgres)
    func aSortKeyChangeThatReordersIsAMoveWithNoSeparateUpdate(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { cards, _ in
            cards["c"]?.rank = 1
            cards["c"]?.note = "changed"
        }
        #expect(outcome.changes == ["move c [0,2]→[0,0]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // CHG-05: an object refreshed by a merge whose changed keys are unknown is a move candidate;
    // staying in place, it is an update without a new index path (CHG-08).
    @Test(arguments: StoreKind.withPostgres)
    func aMergedChangeWithUnknownKeysIsAMoveCandidate(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let other = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let (calls, layout) = try context.performAndWait { () throws -> ([String], [String]) in
            let controller = try Spec.controller(context)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            let id = try #require(cards["b"]).objectID
            try other.performAndWait {
                let card = try #require(try other.existingObject(with: id) as? Card)
                card.note = "changed elsewhere"
                try other.save()
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue: [id]],
                                              into: [context])
            return (log.log, Spec.layout(controller))
        }
        #expect(calls == ["will", "update b [0,1]→-", "did"])
        #expect(layout == [": a b c"])
    }

    // CHG-06: rows with equal sort keys keep a stable order (by object ID), the fetch's order.
    @Test(arguments: StoreKind.withPostgres)
    func tiesAreOrderedAsAFreshFetchOrdersThem(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let seeds = ["p", "q", "r", "s"].map { CardSeed($0, rank: 5) } + [CardSeed("t", rank: 9)]
        let cards = try Spec.seed(context, seeds)
        let (contents, fetched) = try context.performAndWait { () throws -> ([String], [String]) in
            let request = Card.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            cards["t"]?.rank = 5
            cards["q"]?.rank = 9
            context.processPendingChanges()
            cards["q"]?.rank = 5
            let new = Spec.insert(CardSeed("u", rank: 5), into: context)
            defer { withExtendedLifetime(new) {} }
            context.processPendingChanges()
            return (controller.fetchedObjects?.map(\.title) ?? [], try context.fetch(request).map(\.title))
        }
        #expect(contents == fetched)
        #expect(contents == ["p", "q", "r", "s", "t", "u"])
    }

    // MARK: Moves to the same index path

    // CHG-08: a sort key change that keeps the row's place is an update with no new index path.
    @Test(arguments: StoreKind.withPostgres)
    func aSortKeyChangeInPlaceIsAnUpdateWithoutNewIndexPath(kind: StoreKind) throws {
        let outcome = try Self.run(kind, Self.abc) { cards, _ in
            cards["b"]?.rank = 25
        }
        #expect(outcome.changes == ["update b [0,1]→-"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    // CHG-08, our port: a move to its own index path is reported only when the row crossed rows
    // that did not change, where an update in place would give the wrong order.
    @Test(arguments: StoreKind.withPostgres)
    func aRowThatCrossesUnchangedRowsMovesEvenToItsOwnIndexPath(kind: StoreKind) throws {
        let seeds = [CardSeed("u", rank: 10), CardSeed("c", rank: 20), CardSeed("a", rank: 30)]
        let outcome = try Self.run(kind, seeds, allowingMovesInPlace: true) { cards, _ in
            cards["a"]?.rank = 1
            cards["c"]?.rank = 5
        }
        #expect(outcome.changes == ["move a [0,2]→[0,0]", "move c [0,1]→[0,1]"])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.contentsMatchFetch)
    }

    // MARK: Fetch limit and offset

    // CHG-13: with keepsFetchWindow false, Core Data's behaviour: the limit holds at the fetch only,
    // and inserts grow the results. Live windows (the default) are FetchedResultsWindowTests.
    @Test(arguments: StoreKind.withPostgres)
    func withoutKeepingTheWindowTheFetchLimitIsNotEnforcedAsChangesArrive(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, (0..<10).map { CardSeed("t\($0)", rank: Int32($0 + 10)) })
        let (fetched, after, calls) = try context.performAndWait { () throws -> (Int, Int, Int) in
            let controller = try Spec.controller(context, window: (offset: 0, limit: 5))
            controller.keepsFetchWindow = false
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let fetched = controller.fetchedObjects?.count ?? 0
            let added = (0..<6).map { Spec.insert(CardSeed("n\($0)", rank: Int32($0)), into: context) }
            defer { withExtendedLifetime(added) {} }
            context.processPendingChanges()
            return (fetched, controller.fetchedObjects?.count ?? 0,
                    recorder.batches.first?.objectChanges.filter { $0.type == .delete }.count ?? -1)
        }
        #expect(fetched == 5)
        #expect(after == 11)
        #expect(calls == 0)
    }

    // CHG-13: nor, then, is the offset; a row sorting before the window is shown.
    @Test(arguments: StoreKind.withPostgres)
    func withoutKeepingTheWindowTheFetchOffsetIsIgnoredAsChangesArrive(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, (0..<5).map { CardSeed("t\($0)", rank: Int32($0 + 10)) })
        let (fetched, after) = try context.performAndWait { () throws -> ([String], [String]) in
            let controller = try Spec.controller(context, window: (offset: 2, limit: 0))
            controller.keepsFetchWindow = false
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let fetched = controller.fetchedObjects?.map(\.title) ?? []
            let first = Spec.insert(CardSeed("first", rank: 0), into: context)
            defer { withExtendedLifetime(first) {} }
            context.processPendingChanges()
            return (fetched, controller.fetchedObjects?.map(\.title) ?? [])
        }
        #expect(fetched == ["t2", "t3", "t4"])
        #expect(after == ["first", "t2", "t3", "t4"])
    }
}
