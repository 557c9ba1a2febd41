import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// A controller whose context changes objects while another context keeps saving, without
/// waiting for the merges: the controller compares rows with values as its context has seen them
/// (saves committed but not merged yet are taken back out), so its order never drifts.
@Suite struct FetchedResultsConcurrencyTests {
    @Test func localChangesRacingBackgroundSavesKeepTheResultsSorted() throws {
        let stack = try TestStack(.sqlite)
        let view = stack.newContext()
        view.automaticallyMergesChangesFromParent = true
        let background = stack.newContext()
        background.mergePolicy = .mergeByPropertyObjectTrump
        try background.performAndWait {
            for index in 0..<10_000 {
                let card = Card(context: background)
                card.deck = ["A", "B", "C"][index % 3]
                card.rank = Int32(index % 1000)
                card.title = "card \(index)"
            }
            try background.save()
        }
        view.performAndWait {}

        let request = Card.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "deck"), FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
        request.fetchBatchSize = 25
        let recorder = ClassicRecorder()
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view,
                                                  sectionNameKeyPath: "deck", cacheName: nil)
        let initial = try view.performAndWait { () throws -> SimulatedList<ManagedObjectID> in
            controller.delegate = recorder
            try controller.performFetch()
            return SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
        }

        let saves = DispatchGroup()
        saves.enter()
        DispatchQueue.global().async {
            var random = SplitMix64(seed: 0xC0C0)
            let ids = background.performAndWait { (try? background.fetch(Card.fetchRequest()))?.map(\.objectID) ?? [] }
            for _ in 0..<60 {
                background.performAndWait {
                    for _ in 0..<200 where !ids.isEmpty {
                        let card = background.object(with: ids[Int(random.next() % UInt64(ids.count))]) as? Card
                        card?.rank = Int32(random.next() % 1000)
                    }
                    try? background.save()
                    background.refreshAllObjects()
                }
            }
            saves.leave()
        }
        var random = SplitMix64(seed: 0xBEEF)
        var kept: [Card] = []
        for _ in 0..<300 {
            view.performAndWait {
                // Objects this context never loaded are compared by stored values, while the
                // background keeps changing them.
                let card = Card(context: view)
                card.deck = ["A", "B", "C"][Int(random.next() % 3)]
                card.rank = Int32(random.next() % 1000)
                card.title = "local \(random.next() % 1000)"
                kept.append(card)
                view.processPendingChanges()
            }
        }
        saves.wait()
        view.performAndWait {}

        let (result, expected, contents) = try view.performAndWait { () throws -> (SimulatedList<ManagedObjectID>, SimulatedList<ManagedObjectID>, SimulatedList<ManagedObjectID>) in
            var rows = initial
            for batch in recorder.batches { rows = try rows.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true)) }
            var expected = SimulatedList<ManagedObjectID>()
            for card in try view.fetch(request) {
                if expected.sections.last?.name == card.deck ?? "" {
                    expected.sections[expected.sections.count - 1].items.append(card.objectID)
                } else {
                    expected.sections.append(.init(card.deck ?? "", [card.objectID]))
                }
            }
            return (rows, expected, SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) }))
        }
        withExtendedLifetime(kept) {}
        #expect(contents == expected)
        #expect(result == expected)
    }
}
