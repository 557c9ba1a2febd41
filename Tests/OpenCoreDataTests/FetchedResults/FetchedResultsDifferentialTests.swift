import Foundation
import OpenCoreData
import Testing

// The fetched results controller's differential fuzzer. Seeded random batches of 1–50 changes
// (inserts, deletes, changes to sort keys, section keys, the attribute the predicate reads and
// one nothing reads), made in the controller's context (processed, saved or rolled back) or in a
// background context whose saves merge automatically. After every batch:
// - the classic callbacks, applied to the previous rows with UIKit's batch-update rules, give
//   exactly the rows of a fresh fetch, object for object;
// - so does the snapshot delegate's snapshot, and, unsectioned, the difference delegate's
//   difference applied to the previous IDs;
// - and so does the controller's own contents.
//
// Environment:
//   OCD_FRC_FUZZ_BATCHES=<n>   batches per configuration; default 1_700 (5_100 in all)
//   OCD_FRC_FUZZ_SEED=<n>      base seed (decimal or 0x hex)

/// One controller set-up the fuzzer drives.
struct FuzzConfiguration: CustomTestStringConvertible, Sendable {
    let name: String
    let sortKeys: [(key: String, ascending: Bool)]
    let sectionKeyPath: String?
    let predicate: String?
    let store: StoreKind
    let salt: UInt64

    var testDescription: String { name }

    static let all: [FuzzConfiguration] = [
        FuzzConfiguration(name: "sectioned by deck, rank descending, visible only",
                          sortKeys: [("deck", true), ("rank", false), ("title", true)],
                          sectionKeyPath: "deck", predicate: "visible == YES", store: .sqlite, salt: 1),
        FuzzConfiguration(name: "unsectioned by rank with ties, rank below 40",
                          sortKeys: [("rank", true)], sectionKeyPath: nil, predicate: "rank < 40", store: .sqlite, salt: 2),
        FuzzConfiguration(name: "sectioned by deck descending, in memory",
                          sortKeys: [("deck", false), ("title", true)], sectionKeyPath: "deck", predicate: nil,
                          store: .inMemory, salt: 3),
    ]
}

@Suite struct FetchedResultsDifferentialTests {
    static var batchesPerConfiguration: Int {
        ProcessInfo.processInfo.environment["OCD_FRC_FUZZ_BATCHES"].flatMap { Int($0) } ?? 1_700
    }

    static var seed: UInt64 {
        guard let text = ProcessInfo.processInfo.environment["OCD_FRC_FUZZ_SEED"] else { return 0xF2C0_2026 }
        return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) ?? 0 : UInt64(text) ?? 0
    }

    @Test(arguments: FuzzConfiguration.all)
    func everyBatchTurnsTheOldRowsIntoTheNewOnes(configuration: FuzzConfiguration) throws {
        let run = try FetchedResultsFuzzRun(configuration: configuration, seed: Self.seed ^ configuration.salt)
        let report = try run.run(batches: Self.batchesPerConfiguration)
        if let failure = report.failure {
            Issue.record("\(configuration.name), seed \(String(Self.seed ^ configuration.salt, radix: 16)), batch \(report.batches):\n\(failure)")
        }
        print("fetched results fuzzer, \(configuration.name): \(report.batches) batches, \(report.mergedBatches) merged, \(report.savedBatches) saved; changes \(report.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); \(report.sectionChanges) section changes; \(report.movesInPlace) moves in place")
        #expect(report.batches == Self.batchesPerConfiguration)
        // The batches must exercise what they are meant to.
        #expect(report.counts[.insert, default: 0] > 0 && report.counts[.delete, default: 0] > 0)
        #expect(report.counts[.move, default: 0] > 0 && report.counts[.update, default: 0] > 0)
        #expect(report.mergedBatches > 0 && report.savedBatches > 0)
        if configuration.sectionKeyPath != nil { #expect(report.sectionChanges > 0) }
    }
}

/// One run of the fuzzer over one configuration.
final class FetchedResultsFuzzRun: @unchecked Sendable {
    struct Report {
        var batches = 0
        var counts: [FetchedResultsChangeType: Int] = [:]
        var sectionChanges = 0
        var mergedBatches = 0
        /// Moves to their own index paths, needed because the row crossed unchanged rows.
        var movesInPlace = 0
        var savedBatches = 0
        var failure: String?
    }

    let configuration: FuzzConfiguration
    let stack: TestStack
    let view: ManagedObjectContext
    let background: ManagedObjectContext
    var random: SplitMix64
    let classic = ClassicRecorder()
    let snapshots = SnapshotRecorder()
    let differences = DifferenceRecorder()
    var controllers: [FetchedResultsController<Card>] = []
    var rows = SimulatedList<ManagedObjectID>()
    var operations: [String] = []
    /// Objects inserted in the view context, by temporary ID: a list that holds objects sees
    /// them keep their identity when their IDs become permanent, which the classic delegate
    /// does not report.
    var insertedInView: [ManagedObjectID: Card] = [:]

    init(configuration: FuzzConfiguration, seed: UInt64) throws {
        self.configuration = configuration
        stack = try TestStack(configuration.store)
        view = stack.newContext()
        view.name = "view"
        view.automaticallyMergesChangesFromParent = true
        view.mergePolicy = .mergeByPropertyObjectTrump
        background = stack.newContext()
        background.name = "background"
        background.automaticallyMergesChangesFromParent = true
        background.mergePolicy = .mergeByPropertyObjectTrump
        random = SplitMix64(seed: seed)
    }

    func run(batches: Int) throws -> Report {
        var report = Report()
        try background.performAndWait {
            for _ in 0..<60 { insertCard(in: background) }
            try background.save()
        }
        view.performAndWait {}
        try view.performAndWait { try startControllers() }
        for number in 1...batches {
            report.batches = number
            operations = []
            let inView = random.next() % 10 < 6
            let count = random.next() % 10 < 7 ? Int(random.next() % 5) + 1 : Int(random.next() % 50) + 1
            if inView {
                try view.performAndWait {
                    var cards = (try? view.fetch(Card.fetchRequest())) ?? []
                    for _ in 0..<count { change(in: view, cards: &cards) }
                    switch random.next() % 20 {
                    case 0: view.rollback(); operations.append("rollback")
                    case 1...5: try view.save(); operations.append("save"); report.savedBatches += 1
                    default: operations.append("process")
                    }
                    view.processPendingChanges()
                }
            } else {
                try background.performAndWait {
                    var cards = (try? background.fetch(Card.fetchRequest())) ?? []
                    for _ in 0..<count { change(in: background, cards: &cards) }
                    try background.save()
                }
                operations.append("background save")
                report.mergedBatches += 1
            }
            // Let the merge queued by a background save run.
            view.performAndWait {}
            if let failure = view.performAndWait({ check(&report) }) {
                report.failure = failure + "\noperations: " + operations.joined(separator: "; ")
                return report
            }
        }
        return report
    }

    // MARK: Controllers

    private func makeRequest() throws -> FetchRequest<Card> {
        let request = Card.fetchRequest()
        request.sortDescriptors = configuration.sortKeys.map { FetchSortDescriptor(key: $0.key, ascending: $0.ascending) }
        if let predicate = configuration.predicate { request.predicate = try FetchPredicate(format: predicate) }
        request.fetchBatchSize = 20
        return request
    }

    private func startControllers() throws {
        let delegates: [any FetchedResultsControllerDelegate] = configuration.sectionKeyPath == nil
            ? [classic, snapshots, differences] : [classic, snapshots]
        for delegate in delegates {
            let controller = FetchedResultsController(fetchRequest: try makeRequest(), managedObjectContext: view,
                                                      sectionNameKeyPath: configuration.sectionKeyPath, cacheName: nil)
            controller.delegate = delegate
            try controller.performFetch()
            controllers.append(controller)
        }
        rows = try freshRows()
        classic.batches = []
    }

    /// The rows a fresh fetch gives, in sections named as the controller names them.
    private func freshRows() throws -> SimulatedList<ManagedObjectID> {
        var list = SimulatedList<ManagedObjectID>()
        for card in try view.fetch(try makeRequest()) {
            let name = configuration.sectionKeyPath == nil ? "" : card.deck ?? ""
            if list.sections.last?.name == name {
                list.sections[list.sections.count - 1].items.append(card.objectID)
            } else {
                list.sections.append(.init(name, [card.objectID]))
            }
        }
        if configuration.sectionKeyPath == nil, list.sections.isEmpty { list.sections = [.init("", [])] }
        return list
    }

    private func check(_ report: inout Report) -> String? {
        do {
            let expected = try freshRows()
            var current = rows
            for (number, recorded) in classic.batches.enumerated() {
                current = current.map(currentID(of:))
                let batch = FetchedResultsChanges(sectionChanges: recorded.sectionChanges, objectChanges: recorded.objectChanges.map {
                    .init(type: $0.type, objectID: currentID(of: $0.objectID), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
                })
                let isLast = number == classic.batches.count - 1
                let next = isLast ? try current.verifyApplying(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true, expected: expected)
                    : try current.applying(try ListBatch(batch, mapping: .deleteAndInsert, allowingMovesInPlace: true))
                if let needless = try needlessMoveInPlace(in: batch, from: current, to: next) {
                    return "a move to the same index path where an update would do: \(needless)\n batch: \(batch)"
                }
                current = next
                report.sectionChanges += batch.sectionChanges.count
                report.movesInPlace += batch.objectChanges.filter { $0.type == .move && $0.indexPath == $0.newIndexPath }.count
                for change in batch.objectChanges { report.counts[change.type, default: 0] += 1 }
            }
            current = current.map(currentID(of:))
            if current != expected {
                return "classic callbacks\n old:      \(rows)\n result:   \(current)\n expected: \(expected)\n batches:  \(classic.batches)"
            }
            if let snapshot = snapshots.snapshots.last, try SimulatedList(snapshot: snapshot) != expected {
                return "snapshot\n snapshot: \(try SimulatedList(snapshot: snapshot))\n expected: \(expected)"
            }
            if configuration.sectionKeyPath == nil {
                var ids = rows.sections.first?.items ?? []
                for difference in differences.differences { ids = try ids.applyingChecked(difference) }
                if ids != expected.sections.first?.items ?? [] {
                    return "difference\n result:   \(ids)\n expected: \(expected)"
                }
            }
            for controller in controllers {
                let contents = SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
                if contents != expected { return "controller contents\n contents: \(contents)\n expected: \(expected)" }
            }
            rows = expected
            classic.batches = []
            differences.differences = []
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A move to its own index path must be needed: reported as an update in place instead (as
    /// Core Data does), the batch must give a wrong result or be rejected.
    private func needlessMoveInPlace(in batch: FetchedResultsChanges, from old: SimulatedList<ManagedObjectID>,
                                     to new: SimulatedList<ManagedObjectID>) throws -> FetchedResultsChanges.ObjectChange? {
        for (index, change) in batch.objectChanges.enumerated() where change.type == .move && change.indexPath == change.newIndexPath {
            var lowered = batch
            lowered.objectChanges[index] = .init(type: .update, objectID: change.objectID, indexPath: change.indexPath, newIndexPath: nil)
            if let result = try? old.applying(try ListBatch(lowered, mapping: .deleteAndInsert, allowingMovesInPlace: true)), result == new {
                return change
            }
        }
        return nil
    }

    private func currentID(of id: ManagedObjectID) -> ManagedObjectID {
        guard id.isTemporaryID, let card = insertedInView[id] else { return id }
        return card.objectID
    }

    // MARK: Changes

    private static let decks: [String?] = ["A", "B", "C", "D", nil]
    private static let titles = ["ace", "king", "queen", "jack", "ten"]

    private func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

    @discardableResult
    private func insertCard(in context: ManagedObjectContext) -> Card {
        let card = Card(context: context)
        card.deck = random.next() % 30 == 0 ? "E\(random.next() % 3)" : pick(Self.decks)
        card.rank = Int32(random.next() % 50)
        card.title = pick(Self.titles)
        card.visible = random.next() % 5 != 0
        card.note = random.next() % 2 == 0 ? nil : "note"
        if context === view { insertedInView[card.objectID] = card }
        return card
    }

    private func change(in context: ManagedObjectContext, cards: inout [Card]) {
        let roll = random.next() % 100
        if cards.isEmpty || roll < 15 || (cards.count < 40 && roll < 30) {
            cards.append(insertCard(in: context))
            operations.append("\(context.name ?? "") insert")
            return
        }
        let picked = Int(random.next() % UInt64(cards.count))
        let card = cards[picked]
        let label = "\(context.name ?? "") \(card.objectID.uriRepresentation().lastPathComponent)"
        switch roll {
        case ..<30 where cards.count > 120, 30..<42:
            context.delete(card)
            cards.remove(at: picked)
            operations.append("\(label) delete")
        case 42..<60:
            card.rank = Int32(random.next() % 50)
            operations.append("\(label) rank \(card.rank)")
        case 60..<72:
            card.deck = random.next() % 20 == 0 ? "E\(random.next() % 3)" : pick(Self.decks)
            operations.append("\(label) deck \(card.deck ?? "nil")")
        case 72..<84:
            card.visible.toggle()
            operations.append("\(label) visible \(card.visible)")
        case 84..<92:
            card.title = pick(Self.titles)
            operations.append("\(label) title \(card.title)")
        default:
            card.note = card.note == nil ? "changed" : nil
            operations.append("\(label) note")
        }
    }
}
