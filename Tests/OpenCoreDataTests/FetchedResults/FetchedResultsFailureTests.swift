import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// A controller never fails silently: when a change batch cannot be computed (a store read
/// fails), it reports the error, keeps showing what the list shows, and catches up with one batch
/// that is valid for the list once the store reads again.
@Suite struct FetchedResultsFailureTests {
    /// A store of `count` cards ranked at random, written by another context, so that the
    /// controller's context has loaded none of them and has to read their sort keys.
    private static func seededStore(count: Int, generator: inout SplitMix64) throws -> (TestStack, FailingReads, [ManagedObjectID]) {
        let directory = TemporaryDirectory()
        let reads = FailingReads.forStore(at: directory.file("Test.sqlite"))
        let stack = try TestStack(.sqlite, directory: directory, storeType: FailingReads.storeType)
        let seeding = stack.newContext()
        let ids = try seeding.performAndWait {
            let cards = (0..<count).map { number in
                Spec.insert(CardSeed(String(format: "c%04d", number), deck: "D\(Int.random(in: 0..<4, using: &generator))",
                                     rank: Int32.random(in: 0..<1000, using: &generator)), into: seeding)
            }
            try seeding.save()
            return cards.map(\.objectID)
        }
        return (stack, reads, ids)
    }

    /// What the controller shows, as titles, read from its index: reading its objects would load
    /// them into its context, and then it would find their sort keys there instead of reading
    /// the store.
    private static func shown(by controller: AnyFetchedResultsController, titles: [ManagedObjectID: String]) throws -> SimulatedList<String> {
        let engine = try #require(controller.engine)
        return SimulatedList(try engine.index.sections.map { section in
            (name: section.name, items: try section.rows.map { rowKey in try #require(titles[engine.coding.objectID(for: rowKey)]) })
        })
    }

    /// A fresh fetch, in a context of its own for the same reason.
    private static func fresh(_ controller: FetchedResultsController<Card>, in stack: TestStack) throws -> SimulatedList<String> {
        let checker = stack.newContext()
        return try checker.performAndWait {
            try Spec.fetchedList(controller.fetchRequest, sectionKey: controller.sectionNameKeyPath, in: checker)
        }
    }

    /// Random changes made while reads fail now and then: every batch the list hears turns what it
    /// showed into what the controller shows, the controller never shows anything else while it
    /// is behind, and once caught up it shows what a fresh fetch finds.
    @Test(arguments: [(sectioned: false, seed: UInt64(1)), (sectioned: true, seed: UInt64(2)),
                      (sectioned: false, seed: UInt64(3)), (sectioned: true, seed: UInt64(4))])
    func batchesStayValidForTheListAcrossFailedReads(sectioned: Bool, seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let (stack, reads, seededIDs) = try Self.seededStore(count: 600, generator: &generator)
        let context = stack.newContext()
        var titles: [ManagedObjectID: String] = [:]
        for (number, id) in seededIDs.enumerated() { titles[id] = String(format: "c%04d", number) }
        var live = seededIDs
        var failedBatches = 0
        var caughtUp = 0

        let (controller, recorder) = try context.performAndWait {
            let controller = try Spec.controller(context, sectioned: sectioned)
            controller.rowChunkLength = 8
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, recorder)
        }
        var shown = try context.performAndWait { try Self.shown(by: controller, titles: titles) }
        var heard = 0

        for step in 0..<150 {
            if !reads.isFailing, Int.random(in: 0..<8, using: &generator) == 0 {
                reads.isFailing = true
            } else if reads.isFailing, Int.random(in: 0..<3, using: &generator) == 0 {
                reads.isFailing = false
            }
            try context.performAndWait {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<3:
                    let title = String(format: "n%04d", step)
                    let card = Spec.insert(CardSeed(title, deck: "D\(Int.random(in: 0..<5, using: &generator))",
                                                    rank: Int32.random(in: 0..<1000, using: &generator)), into: context)
                    titles[card.objectID] = title
                    try context.save()
                    titles[card.objectID] = title
                    live.append(card.objectID)
                case 3:
                    guard !live.isEmpty else { return }
                    let id = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
                    context.delete(try context.existingObject(with: id))
                    try context.save()
                default:
                    guard let id = live.randomElement(using: &generator),
                          let card = try context.existingObject(with: id) as? Card else { return }
                    if Int.random(in: 0..<4, using: &generator) == 0 {
                        card.deck = "D\(Int.random(in: 0..<5, using: &generator))"
                    } else {
                        card.rank = Int32.random(in: 0..<1000, using: &generator)
                    }
                    try context.save()
                }
            }
            // Between steps, the catch-up a failure scheduled on the context's queue has run.
            try context.performAndWait {
                let now = try Self.shown(by: controller, titles: titles)
                for batch in recorder.batches[heard...] {
                    shown = try shown.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: now) { id in
                        try #require(titles[id], "a batch names \(id), which no step made")
                    }
                    if controller.staleness == nil, !recorder.failures.isEmpty { caughtUp += 1 }
                }
                heard = recorder.batches.count
                #expect(shown == now, "step \(step): the controller shows rows the list was not told of")
                if controller.staleness == nil {
                    // The test's own fetch reads whether the controller's reads fail or not.
                    let failing = reads.isFailing
                    reads.isFailing = false
                    defer { reads.isFailing = failing }
                    #expect(now == (try Self.fresh(controller, in: stack)), "step \(step): the controller is not behind, but differs from a fresh fetch")
                }
            }
        }
        failedBatches = context.performAndWait { recorder.failures.count }
        #expect(failedBatches > 3, "the sequence must make batches fail (reads failed \(reads.failures) times)")
        #expect(caughtUp > 0)
    }

    /// Code that reads the async sequences instead of having a delegate hears the failure on
    /// `failures`, and the next element of `changes` takes its list to the fresh results.
    @Test func sequencesHearTheFailureAndTheCatchUpBatch() async throws {
        var generator = SplitMix64(seed: 9)
        let (stack, reads, ids) = try Self.seededStore(count: 200, generator: &generator)
        let context = stack.newContext()
        let controller = try Spec.controller(context)
        controller.rowChunkLength = 8
        var changes = controller.changes.makeAsyncIterator()
        var failures = controller.failures.makeAsyncIterator()
        let titles = try await context.perform {
            Dictionary(uniqueKeysWithValues: try context.fetch(Card.fetchRequest()).map { ($0.objectID, $0.title) })
        }
        let before = try await context.perform {
            context.reset()
            try controller.performFetch()
            return try Self.shown(by: controller, titles: titles)
        }

        reads.isFailing = true
        try await context.perform {
            let card = try #require(try context.existingObject(with: ids[7]) as? Card)
            card.rank = 1_001
            try context.save()
        }
        let failure = try #require(await failures.next())
        #expect(failure.code == FetchedResultsError.changeProcessingFailed)
        #expect(failure.underlyingError is FailingReads.InjectedFailure)
        #expect(failure.message.contains("disk I/O error (injected by the test)"))
        #expect(try await context.perform { try Self.shown(by: controller, titles: titles) } == before)

        reads.isFailing = false
        try await context.perform {
            let card = try #require(try context.existingObject(with: ids[8]) as? Card)
            card.rank = -1
            try context.save()
        }
        let batch = try #require(await changes.next())
        let now = try await context.perform { try Self.shown(by: controller, titles: titles) }
        let fresh = try Self.fresh(controller, in: stack)
        #expect(now == fresh)
        try before.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: fresh) { id in
            try #require(titles[id])
        }
    }

    /// While the store keeps failing, every attempt to catch up is reported, and the controller
    /// keeps its rows; `performFetch()` starts over and clears the failure.
    @Test func aCatchUpThatFailsIsReportedAgainAndPerformFetchStartsOver() throws {
        var generator = SplitMix64(seed: 4)
        let (stack, reads, ids) = try Self.seededStore(count: 100, generator: &generator)
        let context = stack.newContext()
        let titles = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, String(format: "c%04d", $0.offset)) })
        let (controller, recorder, before) = try context.performAndWait {
            let controller = try Spec.controller(context)
            controller.rowChunkLength = 8
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, recorder, try Self.shown(by: controller, titles: titles))
        }
        reads.isFailing = true
        try context.performAndWait {
            for (step, id) in ids.prefix(3).enumerated() {
                let card = try #require(try context.existingObject(with: id) as? Card)
                card.rank = 2_000 + Int32(step)
                try context.save()
            }
        }
        try context.performAndWait {
            // The first batch failed, then every event after it (each save reports its changes,
            // then the save) and the catch-up scheduled after the first failure tried to fetch
            // again and failed: at least one report per save and one more, and no batch.
            #expect(recorder.failures.count >= 4)
            #expect(recorder.failures.allSatisfy { $0.code == FetchedResultsError.changeProcessingFailed })
            #expect(recorder.batches.isEmpty)
            #expect(try Self.shown(by: controller, titles: titles) == before)
            #expect(controller.staleness != nil)

            reads.isFailing = false
            try controller.performFetch()
            #expect(controller.staleness == nil)
            #expect(try Self.shown(by: controller, titles: titles) == (try Self.fresh(controller, in: stack)))
        }
        withExtendedLifetime(stack) {}
    }
}
