import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// FRC-SPEC sections 4, 7 and 8: delegate configuration, the order of the classic callbacks, the
/// snapshot and difference forms (and CHG-15, temporary IDs), and the async sequences.
@Suite struct FetchedResultsDelegateTests {
    private static let abc = [CardSeed("a", rank: 10), CardSeed("b", rank: 20), CardSeed("c", rank: 30)]

    /// Implements only the index-title method.
    final class TitleOnlyDelegate: FetchedResultsControllerDelegate, @unchecked Sendable {
        func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
            "T"
        }
    }

    // MARK: Delegate configuration

    // DEL-01, DEL-02. Deliberate difference: Swift has no optional protocol methods, so adopting
    // the delegate protocol turns tracking on, even for a delegate that only gives index titles.
    // Without a delegate nothing is followed.
    @Test(arguments: StoreKind.withPostgres)
    func adoptingTheDelegateProtocolTurnsTrackingOnAndNoDelegateLeavesItOff(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let (untracked, titleOnly) = try context.performAndWait { () throws -> (Int, Int) in
            let plain = try Spec.controller(context)
            try plain.performFetch()
            let titled = try Spec.controller(context)
            let delegate = TitleOnlyDelegate()
            titled.delegate = delegate
            try titled.performFetch()
            let card = Spec.insert(CardSeed("n", rank: 1), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return (plain.fetchedObjects?.count ?? 0, titled.fetchedObjects?.count ?? 0)
        }
        #expect(untracked == 3)
        #expect(titleOnly == 4)
    }

    // DEL-03: a delegate implementing all six methods hears only snapshots.
    @Test(arguments: [false, true])
    func aSnapshotDelegateHearsOnlySnapshots(sectioned: Bool) throws {
        let log = try Self.callbacks(of: EveryMethodLog(), sectioned: sectioned)
        #expect(log == ["snapshot", "snapshot"])
    }

    // DEL-03: without the snapshot method, an unsectioned controller calls only the difference
    // method; a sectioned one falls back to the classic callbacks.
    @Test(arguments: [false, true])
    func aDifferenceDelegateHearsDifferencesOnlyWhenUnsectioned(sectioned: Bool) throws {
        let log = try Self.callbacks(of: DifferenceAndClassicLog(), sectioned: sectioned)
        #expect(log == (sectioned ? ["will", "insert n -→[0,0]", "did"] : ["difference"]))
    }

    /// The callbacks `delegate` hears for a fetch and one insert.
    private static func callbacks(of delegate: CallbackLog, sectioned: Bool) throws -> [String] {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("a", deck: "A", rank: 10)])
        return try context.performAndWait {
            let controller = try Spec.controller(context, sectioned: sectioned)
            controller.delegate = delegate
            try controller.performFetch()
            let card = Spec.insert(CardSeed("n", deck: "A", rank: 1), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return delegate.log
        }
    }

    // DEL-04: changes made while the delegate is nil are not replayed; the fetch catches up.
    @Test(arguments: StoreKind.withPostgres)
    func changesMadeWithoutADelegateAreNotReplayed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let (counts, calls) = try context.performAndWait { () throws -> ([Int], [String]) in
            let controller = try Spec.controller(context)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            controller.delegate = nil
            let first = Spec.insert(CardSeed("n", rank: 1), into: context)
            context.processPendingChanges()
            controller.delegate = log
            var counts = [controller.fetchedObjects?.count ?? 0]
            try controller.performFetch()
            counts.append(controller.fetchedObjects?.count ?? 0)
            let second = Spec.insert(CardSeed("m", rank: 2), into: context)
            context.processPendingChanges()
            counts.append(controller.fetchedObjects?.count ?? 0)
            withExtendedLifetime((first, second)) {}
            return (counts, log.log)
        }
        #expect(counts == [3, 4, 5])
        #expect(calls == ["will", "insert m -→[0,1]", "did"])
    }

    // DEL-04: a new delegate's form is sampled when it is set.
    @Test func swappingTheDelegateChangesTheCallbacks() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let (classic, snapshots) = try context.performAndWait { () throws -> ([String], Int) in
            let controller = try Spec.controller(context)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            let snapshot = SnapshotRecorder()
            controller.delegate = snapshot
            let card = Spec.insert(CardSeed("n", rank: 1), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return (log.log, snapshot.snapshots.count)
        }
        #expect(classic.isEmpty)
        #expect(snapshots == 1)
    }

    // DEL-05, API-05: a delegate that went away stops tracking at the next batch, without a crash.
    @Test(arguments: StoreKind.withPostgres)
    func aDeallocatedDelegateStopsTracking(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let counts = try context.performAndWait { () throws -> [Int] in
            let controller = try Spec.controller(context)
            do {
                let log = CallbackLog()
                controller.delegate = log
                try controller.performFetch()
            }
            let first = Spec.insert(CardSeed("n", rank: 1), into: context)
            context.processPendingChanges()
            let second = Spec.insert(CardSeed("m", rank: 2), into: context)
            context.processPendingChanges()
            withExtendedLifetime((first, second)) {}
            return [controller.fetchedObjects?.count ?? 0]
        }
        #expect(counts == [3])
    }

    // DEL-06: a delegate set after the fetch follows changes from then on.
    @Test(arguments: StoreKind.withPostgres)
    func aDelegateSetAfterTheFetchFollowsChangesFromThen(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let (calls, titles) = try context.performAndWait { () throws -> ([String], [String]) in
            let controller = try Spec.controller(context)
            try controller.performFetch()
            let log = CallbackLog()
            controller.delegate = log
            let card = Spec.insert(CardSeed("n", rank: 15), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return (log.log, controller.fetchedObjects?.map(\.title) ?? [])
        }
        #expect(calls == ["will", "insert n -→[0,1]", "did"])
        #expect(titles == ["a", "n", "b", "c"])
    }

    // MARK: Callback order

    // ORD-01, ORD-02: willChange sees the old contents; each change callback the new ones.
    @Test(arguments: StoreKind.withPostgres)
    func willChangeSeesTheOldContentsAndChangeCallbacksTheNewOnes(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let (atWill, atChange) = try context.performAndWait { () throws -> ([Int], [String]) in
            let controller = try Spec.controller(context)
            let recorder = ClassicRecorder()
            let log = CallbackLog()
            var seen: [String] = []
            log.onObjectChange = { controller, object, type in
                guard let controller = controller as? FetchedResultsController<Card>, let card = object as? Card else { return }
                let titles = controller.fetchedObjects?.map(\.title) ?? []
                seen.append("\(type) \(card.title) \(Spec.path(controller.indexPath(forObject: card))) \(titles.joined(separator: " "))")
            }
            controller.delegate = recorder
            try controller.performFetch()
            context.delete(try #require(cards["a"]))
            context.processPendingChanges()
            controller.delegate = log
            let card = Spec.insert(CardSeed("n", rank: 25), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            return (recorder.countsAtWillChange, seen)
        }
        #expect(atWill == [3])
        #expect(atChange == ["insert n [0,1] b n c"])
    }

    // ORD-02: during a delete callback the object is already gone.
    @Test func duringADeleteCallbackTheObjectIsGone() throws {
        let stack = try TestStack(.inMemory)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let seen = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context)
            let log = CallbackLog()
            var seen: [String] = []
            log.onObjectChange = { controller, object, _ in
                let titles = (controller as? FetchedResultsController<Card>)?.fetchedObjects?.map(\.title) ?? []
                seen.append("\((object as? Card)?.title ?? "?") gone: \(!titles.contains("b"))")
            }
            controller.delegate = log
            try controller.performFetch()
            context.delete(try #require(cards["b"]))
            context.processPendingChanges()
            return seen
        }
        #expect(seen == ["b gone: true"])
    }

    // ORD-03, ORD-04. Deliberate difference (documented on FetchedResultsChanges): a fixed
    // order: section deletes (descending), section inserts (ascending), row deletes (descending),
    // row inserts (ascending), moves (by new index path), updates (by old index path); willChange
    // first and didChange last, once per batch. Apple's order within groups is unspecified.
    @Test(arguments: StoreKind.withPostgres)
    func callbacksComeInTheDocumentedOrder(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let seeds = [CardSeed("a1", deck: "A", rank: 1), CardSeed("a2", deck: "A", rank: 2), CardSeed("a3", deck: "A", rank: 3),
                     CardSeed("b1", deck: "B", rank: 1), CardSeed("c1", deck: "C", rank: 1), CardSeed("c2", deck: "C", rank: 2),
                     CardSeed("d1", deck: "D", rank: 1), CardSeed("e1", deck: "E", rank: 1)]
        let cards = try Spec.seed(context, seeds)
        let calls = try context.performAndWait { () throws -> [String] in
            let controller = try Spec.controller(context, sectioned: true)
            let log = CallbackLog()
            controller.delegate = log
            try controller.performFetch()
            context.delete(try #require(cards["a1"]))
            context.delete(try #require(cards["a3"]))
            cards["b1"]?.deck = "F"
            cards["d1"]?.deck = "F"
            cards["d1"]?.rank = 2
            cards["c2"]?.rank = 0
            cards["e1"]?.note = "changed"
            cards["c1"]?.note = "changed"
            let new = [Spec.insert(CardSeed("c0", deck: "C", rank: -1), into: context),
                       Spec.insert(CardSeed("e2", deck: "E", rank: 2), into: context)]
            defer { withExtendedLifetime(new) {} }
            context.processPendingChanges()
            return log.log
        }
        #expect(calls == [
            "will",
            "section delete 3 D", "section delete 1 B", "section insert 3 F",
            "delete a3 [0,2]→-", "delete a1 [0,0]→-",
            "insert c0 -→[1,0]", "insert e2 -→[2,1]",
            "move c2 [2,1]→[1,1]", "move b1 [1,0]→[3,0]", "move d1 [3,0]→[3,1]",
            "update c1 [2,0]→[1,2]", "update e1 [4,0]→[2,0]",
            "did",
        ])
    }

    // ORD-05: changes processed at the start of a save make one batch; a merge makes its own.
    @Test(arguments: StoreKind.withPostgres)
    func aSaveOfUnprocessedChangesIsOneBatchAndAMergeIsAnother(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        context.automaticallyMergesChangesFromParent = true
        try Spec.seed(context, Self.abc)
        let other = stack.newContext()
        let recorder = ClassicRecorder()
        let controller = try context.performAndWait { () throws -> FetchedResultsController<Card> in
            let controller = try Spec.controller(context)
            controller.delegate = recorder
            try controller.performFetch()
            let card = Spec.insert(CardSeed("n", rank: 1), into: context)
            try context.save()
            withExtendedLifetime(card) {}
            return controller
        }
        let afterSave = context.performAndWait { recorder.batches.count }
        try Spec.seed(other, [CardSeed("m", rank: 2)])
        context.performAndWait {}
        let (afterMerge, titles) = context.performAndWait { (recorder.batches.count, controller.fetchedObjects?.map(\.title) ?? []) }
        #expect(afterSave == 1)
        #expect(afterMerge == 2)
        #expect(titles == ["n", "m", "a", "b", "c"])
    }

    // MARK: Snapshots

    // SNP-01, SNP-02: one section per controller section, by name, or Core Data's constant
    // identifier unsectioned; items are the object IDs in result order.
    @Test(arguments: StoreKind.withPostgres)
    func aSnapshotHoldsTheSectionsByNameAndTheObjectIDsInOrder(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, [CardSeed("a1", deck: "A", rank: 1), CardSeed("b1", deck: "B", rank: 1), CardSeed("a2", deck: "A", rank: 2)])
        let (unsectioned, unsectionedIDs, sectioned, sectionedIDs) = try context.performAndWait {
            () throws -> (FetchedResultsSnapshot?, [ManagedObjectID], FetchedResultsSnapshot?, [ManagedObjectID]) in
            let plain = try Spec.controller(context)
            let first = SnapshotRecorder()
            plain.delegate = first
            try plain.performFetch()
            let sections = try Spec.controller(context, sectioned: true)
            let second = SnapshotRecorder()
            sections.delegate = second
            try sections.performFetch()
            return (first.snapshots.last, plain.fetchedObjects?.map(\.objectID) ?? [],
                    second.snapshots.last, sections.fetchedObjects?.map(\.objectID) ?? [])
        }
        #expect(unsectioned?.sectionIdentifiers == ["d69e6c783a242772974cfc99189691b88e9d37c3"])
        #expect(unsectioned?.itemIdentifiers == unsectionedIDs)
        #expect(unsectioned?.reloadedItemIdentifiers == [])
        #expect(sectioned?.sectionIdentifiers == ["A", "B"])
        #expect(sectioned?.itemIdentifiers(inSection: "A") == Array(sectionedIDs.prefix(2)))
        #expect(sectioned?.itemIdentifiers == sectionedIDs)
    }

    // SNP-03, SNP-04: updated and moved objects are reloaded items; a batch that changes nothing
    // in the results sends no snapshot; no classic callbacks.
    @Test(arguments: StoreKind.withPostgres)
    func updatedAndMovedObjectsAreReloadedItems(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc + [CardSeed("hidden", rank: 5, visible: false)])
        let (reloaded, count, classicCalls, items) = try context.performAndWait {
            () throws -> ([Set<ManagedObjectID>], Int, Int, [ManagedObjectID]) in
            let controller = try Spec.controller(context, predicate: "visible == YES")
            let recorder = SnapshotRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            cards["b"]?.note = "changed"
            context.processPendingChanges()
            cards["c"]?.rank = 1
            let card = Spec.insert(CardSeed("n", rank: 40), into: context)
            defer { withExtendedLifetime(card) {} }
            context.processPendingChanges()
            cards["hidden"]?.note = "changed"
            context.processPendingChanges()
            return (recorder.snapshots.map { Set($0.reloadedItemIdentifiers) }, recorder.snapshots.count, recorder.classicCalls,
                    recorder.snapshots.last?.itemIdentifiers ?? [])
        }
        let id = { (title: String) in cards[title]?.objectID }
        #expect(count == 3)
        #expect(reloaded.count == 3 && reloaded[0] == [] && reloaded[1] == Set([id("b")].compactMap { $0 }))
        #expect(reloaded.last == Set([id("c")].compactMap { $0 }))
        #expect(items.prefix(3) == ["c", "a", "b"].compactMap(id)[...])
        #expect(classicCalls == 0)
    }

    // SNP-05. Deliberate difference: snapshots are built from IDs; with a batch size the fetch
    // and the snapshots after it load no batch of objects.
    @Test func snapshotsAreBuiltWithoutLoadingObjects() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try Spec.seed(stack.newContext(), (0..<1000).map { CardSeed("t\($0)", rank: Int32($0)) })
        let context = stack.newContext()
        let (fetch, change, items) = try context.performAndWait { () throws -> ([String], [String], [Int]) in
            let request = try Spec.request()
            request.fetchBatchSize = 20
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            let recorder = SnapshotRecorder()
            controller.delegate = recorder
            let fetch = try log.selects { try controller.performFetch() }
            let card = controller.object(at: IndexPath(row: 500, section: 0))
            card.note = "changed"
            let change = log.selects { context.processPendingChanges() }
            return (fetch, change, recorder.snapshots.map(\.numberOfItems))
        }
        #expect(items == [1000, 1000])
        #expect(fetch.count == 1, "\(fetch)")
        let batchLoad = String(repeating: "?,", count: 19)
        #expect(change.allSatisfy { !$0.contains(batchLoad) }, "\(change)")
        #expect(change.count < 1000 / 20, "\(change.count) queries")
    }

    // MARK: Differences

    // SNP-06: a pure update is an associated remove and insert at the same offset; never from a
    // fetch.
    @Test(arguments: StoreKind.withPostgres)
    func aPureUpdateIsAnAssociatedRemoveAndInsertAtTheSameOffset(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let differences = try context.performAndWait { () throws -> [CollectionDifference<ManagedObjectID>] in
            let controller = try Spec.controller(context)
            let recorder = DifferenceRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(recorder.differences.isEmpty)
            cards["b"]?.note = "changed"
            context.processPendingChanges()
            return recorder.differences
        }
        let id = try #require(cards["b"]?.objectID)
        #expect(differences.count == 1)
        #expect((differences.first.map(Array.init) ?? []) == [
            .remove(offset: 1, element: id, associatedWith: 1), .insert(offset: 1, element: id, associatedWith: 1),
        ])
    }

    // SNP-06: moves are not lowered here: each moved or updated object is an associated pair;
    // inserts and deletes are not associated; the differences rebuild the new IDs.
    @Test(arguments: StoreKind.withPostgres)
    func differencesRebuildTheResultsWithoutMoveLowering(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let (old, differences, new) = try context.performAndWait {
            () throws -> ([ManagedObjectID], [CollectionDifference<ManagedObjectID>], [ManagedObjectID]) in
            let controller = try Spec.controller(context)
            let recorder = DifferenceRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            let old = controller.fetchedObjects?.map(\.objectID) ?? []
            cards["a"]?.rank = 20
            cards["b"]?.rank = 10
            context.processPendingChanges()
            context.delete(try #require(cards["c"]))
            let card = Spec.insert(CardSeed("n", rank: 15), into: context)
            try context.obtainPermanentIDs(for: [card])
            context.processPendingChanges()
            return (old, recorder.differences, controller.fetchedObjects?.map(\.objectID) ?? [])
        }
        #expect(differences.count == 2)
        let swap = differences.first.map(Array.init) ?? []
        #expect(swap.count == 4 && swap.allSatisfy { change in
            switch change {
            case .insert(_, _, let associated), .remove(_, _, let associated): associated != nil
            }
        })
        let second = differences.last.map(Array.init) ?? []
        #expect(second.count == 2 && second.allSatisfy { change in
            switch change {
            case .insert(_, _, let associated), .remove(_, _, let associated): associated == nil
            }
        })
        var ids = old
        for difference in differences { ids = try ids.applyingChecked(difference) }
        #expect(ids == new)
    }

    // CHG-15: an unsaved insert carries a temporary ID; the save gives the same row its
    // permanent ID. Snapshot and difference consumers hear the new ID; the classic delegate,
    // which receives the object itself, hears nothing.
    @Test(arguments: StoreKind.withPostgres)
    func temporaryIDsBecomePermanentInTheNextSnapshotAfterTheSave(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        let result = try context.performAndWait {
            () throws -> (snapshots: [[ManagedObjectID]], temporary: ManagedObjectID, permanent: ManagedObjectID,
                          classicBatches: Int, difference: [CollectionDifference<ManagedObjectID>.Change]) in
            let snapshots = SnapshotRecorder()
            let classic = ClassicRecorder()
            let differences = DifferenceRecorder()
            var controllers: [FetchedResultsController<Card>] = []
            for delegate in [snapshots, classic, differences] as [any FetchedResultsControllerDelegate] {
                let controller = try Spec.controller(context)
                controller.delegate = delegate
                try controller.performFetch()
                controllers.append(controller)
            }
            let card = Spec.insert(CardSeed("n", rank: 15), into: context)
            context.processPendingChanges()
            let temporary = card.objectID
            try context.save()
            return (snapshots.snapshots.map(\.itemIdentifiers), temporary, card.objectID, classic.batches.count,
                    differences.differences.last.map(Array.init) ?? [])
        }
        #expect(result.temporary.isTemporaryID)
        #expect(!result.permanent.isTemporaryID)
        #expect(result.snapshots.count == 3)
        #expect(result.snapshots.count == 3 && result.snapshots[1][1] == result.temporary)
        #expect(result.snapshots.count == 3 && result.snapshots[2][1] == result.permanent)
        #expect(result.classicBatches == 1)
        #expect(result.difference == [.remove(offset: 1, element: result.temporary, associatedWith: nil),
                                      .insert(offset: 1, element: result.permanent, associatedWith: nil)])
    }

    // MARK: Async sequences

    // The `changes` sequence delivers the batches the classic delegate hears, and ends when the
    // controller goes away.
    @Test(arguments: StoreKind.withPostgres)
    func theChangesSequenceDeliversTheClassicBatches(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let recorder = ClassicRecorder()
        var controller: FetchedResultsController<Card>? = try context.performAndWait {
            let controller = try Spec.controller(context, sectioned: true)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let stream = try #require(controller).changes
        try context.performAndWait {
            cards["a"]?.rank = 25
            context.processPendingChanges()
            context.delete(try #require(cards["b"]))
            cards["c"]?.deck = "Z"
            context.processPendingChanges()
            cards["c"]?.note = "changed"
            context.processPendingChanges()
        }
        let heard = context.performAndWait { recorder.batches }
        controller = nil
        var received: [FetchedResultsChanges] = []
        for await batch in stream { received.append(batch) }
        #expect(heard.count == 3)
        #expect(received == heard)
    }

    // A `changes` sequence turns tracking on without a delegate.
    @Test(arguments: StoreKind.withPostgres)
    func theChangesSequenceTurnsTrackingOnWithoutADelegate(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try Spec.seed(context, Self.abc)
        var controller: FetchedResultsController<Card>? = try context.performAndWait {
            let controller = try Spec.controller(context)
            try controller.performFetch()
            return controller
        }
        let stream = try #require(controller).changes
        let (insertedID, titles) = try context.performAndWait { () throws -> (ManagedObjectID, [String]) in
            let card = Spec.insert(CardSeed("n", rank: 15), into: context)
            try context.obtainPermanentIDs(for: [card])
            context.processPendingChanges()
            return (card.objectID, try #require(controller).fetchedObjects?.map(\.title) ?? [])
        }
        controller = nil
        var received: [FetchedResultsChanges] = []
        for await batch in stream { received.append(batch) }
        #expect(titles == ["a", "n", "b", "c"])
        #expect(received == [FetchedResultsChanges(objectChanges: [
            .init(type: .insert, objectID: insertedID, indexPath: nil, newIndexPath: IndexPath(row: 1, section: 0)),
        ])])
    }

    // The `snapshots` sequence delivers what a snapshot delegate receives, fetch included, and
    // turns tracking on by itself.
    @Test(arguments: StoreKind.withPostgres)
    func theSnapshotsSequenceDeliversTheDelegatesSnapshots(kind: StoreKind) async throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cards = try Spec.seed(context, Self.abc)
        let recorder = SnapshotRecorder()
        var controller: FetchedResultsController<Card>? = try context.performAndWait { try Spec.controller(context, sectioned: true) }
        var untracked: FetchedResultsController<Card>? = try context.performAndWait { try Spec.controller(context) }
        let stream = try #require(controller).snapshots
        let untrackedStream = try #require(untracked).snapshots
        try context.performAndWait {
            let tracked = try #require(controller)
            tracked.delegate = recorder
            try tracked.performFetch()
            try #require(untracked).performFetch()
            cards["a"]?.rank = 25
            context.processPendingChanges()
            cards["b"]?.deck = "Z"
            context.processPendingChanges()
        }
        let heard = context.performAndWait { recorder.snapshots }
        controller = nil
        untracked = nil
        var received: [FetchedResultsSnapshot] = []
        for await snapshot in stream { received.append(snapshot) }
        var receivedUntracked: [FetchedResultsSnapshot] = []
        for await snapshot in untrackedStream { receivedUntracked.append(snapshot) }
        #expect(heard.count == 3)
        #expect(received == heard)
        #expect(receivedUntracked.count == 3)
    }
}
