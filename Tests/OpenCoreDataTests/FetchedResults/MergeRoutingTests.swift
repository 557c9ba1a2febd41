import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

// A merge reaches each controller of a context only with the rows that concern it (MergeRouter):
// rows it may show already, and rows whose new values pass its predicate's terms on the object's
// own attributes. These tests keep many controllers with different predicates on one context,
// merge random saves made elsewhere, and check every batch each controller hears, applied with
// UIKit's rules, against a fresh fetch of its own request.

@Suite struct MergeRoutingTests {
    /// Predicates the router indexes (an attribute equal to a constant), checks term by term
    /// (ranges, OR, NOT, string matching, folding), and lets every row through (none).
    static let predicates: [String?] = [
        nil, "deck == 'A'", "deck == 'B' AND rank < 25", "visible == YES", "visible == NO AND rank >= 10",
        "rank == 7", "rank >= 10 AND rank < 20", "deck == 'C' OR rank < 5", "NOT (deck == 'A')",
        "title BEGINSWITH 'k'", "deck == nil", "deck IN {'A', 'D'}", "rank == 12.0", "title == 'ace' AND deck == 'D'",
        "deck ==[c] 'b'", "rank == 3 AND visible == YES AND deck == 'A'", "FALSEPREDICATE",
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyControllerOfAContextFollowsMergesWithItsOwnPredicate(seed: UInt64) throws {
        let stack = try TestStack(.sqlite)
        let view = stack.newContext()
        view.automaticallyMergesChangesFromParent = true
        let writer = stack.newContext()
        var random = SplitMix64(seed: seed)
        try writer.performAndWait {
            for _ in 0..<60 { Self.insertCard(in: writer, &random) }
            try writer.save()
        }
        let watched = try view.performAndWait {
            try Self.predicates.enumerated().map { number, format in
                try WatchedController(format, sectioned: number % 3 == 0, batchSize: number % 2 == 0 ? 10 : 0, context: view)
            }
        }
        for _ in 0..<120 {
            try writer.performAndWait {
                var cards = try writer.all(Card.self)
                let count = random.next() % 8 == 0 ? 30 : Int(random.next() % 6) + 1
                for _ in 0..<count { Self.change(in: writer, cards: &cards, &random) }
                try writer.save()
            }
            // The merge was queued on the view's queue by the save; this runs after it.
            try view.performAndWait {
                for controller in watched { try controller.check() }
            }
        }
        #expect(watched.contains { $0.batchesSeen > 10 })
        let silent = watched.filter { $0.batchesSeen == 0 }.map { $0.format ?? "no predicate" }
        #expect(silent.allSatisfy { $0 == "FALSEPREDICATE" || $0.hasPrefix("rank == 3 AND") }, "no batch for \(silent)")
    }

    /// Core Data reads the request's predicate again for every batch: a predicate set between two
    /// merges decides which rows of the second one enter, though the rows were routed by guards.
    @Test
    func aPredicateChangedBetweenMergesDecidesWhatTheNextOneBrings() throws {
        let stack = try TestStack(.sqlite)
        let view = stack.newContext()
        view.automaticallyMergesChangesFromParent = true
        let writer = stack.newContext()
        let (controller, recorder) = try view.performAndWait {
            let request = Card.fetchRequest()
            request.predicate = try FetchPredicate(format: "deck == 'A' AND rank >= 100")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ClassicRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, recorder)
        }
        try view.performAndWait { controller.fetchRequest.predicate = try FetchPredicate(format: "deck == 'B'") }
        try writer.performAndWait {
            let card = Card(context: writer)
            card.deck = "B"
            card.title = "moved in"
            try writer.save()
        }
        view.performAndWait {
            #expect(recorder.batches.count == 1)
            #expect(recorder.batches.first?.objectChanges.map(\.type) == [.insert])
            #expect(controller.fetchedObjects?.map(\.title) == ["moved in"])
        }
    }

    static func insertCard(in context: ManagedObjectContext, _ random: inout SplitMix64) {
        let card = Card(context: context)
        randomize(card, &random)
    }

    static func randomize(_ card: Card, _ random: inout SplitMix64) {
        let decks: [String?] = ["A", "B", "C", "D", "b", nil]
        let titles = ["ace", "king", "queen", "jack", "ten"]
        card.deck = decks[Int(random.next() % UInt64(decks.count))]
        card.rank = Int32(random.next() % 30)
        card.title = titles[Int(random.next() % UInt64(titles.count))]
        card.visible = random.next() % 4 != 0
    }

    /// An insert, a delete, or one attribute changed.
    static func change(in context: ManagedObjectContext, cards: inout [Card], _ random: inout SplitMix64) {
        let roll = random.next() % 10
        if cards.isEmpty || roll < 2 {
            insertCard(in: context, &random)
            return
        }
        let index = Int(random.next() % UInt64(cards.count))
        let card = cards[index]
        switch roll {
        case 2, 3:
            context.delete(card)
            cards.remove(at: index)
        case 4, 5: card.rank = Int32(random.next() % 30)
        case 6: card.deck = ["A", "B", "C", nil][Int(random.next() % 4)]
        case 7: card.visible.toggle()
        case 8: card.title = ["ace", "king", "queen"][Int(random.next() % 3)]
        default: randomize(card, &random)
        }
    }
}

/// A controller of cards with a recorder, and the rows it showed at the last check.
private final class WatchedController: @unchecked Sendable {
    let format: String?
    let controller: FetchedResultsController<Card>
    private let recorder = ClassicRecorder()
    private let sectioned: Bool
    private let context: ManagedObjectContext
    private var rows: SimulatedList<ManagedObjectID>
    private(set) var batchesSeen = 0

    init(_ format: String?, sectioned: Bool, batchSize: Int, context: ManagedObjectContext) throws {
        self.format = format
        self.sectioned = sectioned
        self.context = context
        let request = Card.fetchRequest()
        request.predicate = try format.map { try FetchPredicate(format: $0) }
        request.sortDescriptors = (sectioned ? [FetchSortDescriptor(key: "deck")] : [])
            + [FetchSortDescriptor(key: "rank", ascending: sectioned), FetchSortDescriptor(key: "title")]
        request.fetchBatchSize = batchSize
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: sectioned ? "deck" : nil, cacheName: nil)
        rows = SimulatedList()
        controller.delegate = recorder
        try controller.performFetch()
        rows = try freshRows()
    }

    /// The rows of a fresh fetch of the controller's request, in sections named as it names them.
    func freshRows() throws -> SimulatedList<ManagedObjectID> {
        var list = SimulatedList<ManagedObjectID>()
        for card in try context.fetch(controller.fetchRequest) {
            let name = sectioned ? card.deck ?? "" : ""
            if list.sections.last?.name == name {
                list.sections[list.sections.count - 1].items.append(card.objectID)
            } else {
                list.sections.append(.init(name, [card.objectID]))
            }
        }
        if !sectioned, list.sections.isEmpty { list.sections = [.init("", [])] }
        return list
    }

    /// The batches since the last check turn the rows then into a fresh fetch's, and the
    /// controller shows those.
    func check() throws {
        let expected = try freshRows()
        var current = rows
        for (number, batch) in recorder.batches.enumerated() {
            current = number == recorder.batches.count - 1
                ? try current.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: expected)
                : try current.applying(ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
        }
        #expect(current == expected, "\(format ?? "no predicate"): the batches heard do not give a fresh fetch's rows")
        #expect(SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) }) == expected,
                "\(format ?? "no predicate"): the controller does not show a fresh fetch's rows")
        batchesSeen += recorder.batches.count
        recorder.batches = []
        rows = expected
    }
}
