import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

// Helpers shared by the behaviour tests of FRC-SPEC (FetchedResults*Tests.swift): cards seeded
// from short descriptions, controllers over them, the contents and change batches as readable
// text (cards are named by their titles), and delegates that log every callback.

/// A card to seed: its title names it in expectations.
struct CardSeed: Sendable {
    var title: String
    var deck: String?
    var rank: Int32
    var visible = true

    init(_ title: String, deck: String? = nil, rank: Int32, visible: Bool = true) {
        self.title = title
        self.deck = deck
        self.rank = rank
        self.visible = visible
    }
}

enum Spec {
    /// Inserts and saves cards, returning them by title (the caller keeps them registered).
    @discardableResult
    static func seed(_ context: ManagedObjectContext, _ seeds: [CardSeed]) throws -> [String: Card] {
        try context.performAndWait {
            var cards: [String: Card] = [:]
            for seed in seeds {
                cards[seed.title] = insert(seed, into: context)
            }
            try context.save()
            return cards
        }
    }

    static func insert(_ seed: CardSeed, into context: ManagedObjectContext) -> Card {
        let card = Card(context: context)
        card.title = seed.title
        card.deck = seed.deck
        card.rank = seed.rank
        card.visible = seed.visible
        return card
    }

    /// A request for cards: unsectioned by rank then title, or sectioned by deck, rank, title.
    static func request(sectioned: Bool = false, predicate: String? = nil) throws -> FetchRequest<Card> {
        let request = Card.fetchRequest()
        request.sortDescriptors = sectioned
            ? [FetchSortDescriptor(key: "deck"), FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
            : [FetchSortDescriptor(key: "rank"), FetchSortDescriptor(key: "title")]
        if let predicate { request.predicate = try FetchPredicate(format: predicate) }
        return request
    }

    /// A controller on ``request(sectioned:predicate:)``, with the request's `fetchOffset` and
    /// `fetchLimit` from `window` when given.
    static func controller(_ context: ManagedObjectContext, sectioned: Bool = false, predicate: String? = nil,
                           cacheName: String? = nil, window: (offset: Int, limit: Int)? = nil) throws -> FetchedResultsController<Card> {
        let request = try request(sectioned: sectioned, predicate: predicate)
        if let window {
            request.fetchOffset = window.offset
            request.fetchLimit = window.limit
        }
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                        sectionNameKeyPath: sectioned ? "deck" : nil, cacheName: cacheName)
    }

    /// The title of the card with this ID, as the context sees it.
    static func title(_ id: ManagedObjectID, in context: ManagedObjectContext) -> String {
        (try? context.existingObject(with: id) as? Card)?.title ?? id.uriRepresentation().lastPathComponent
    }

    /// The controller's contents as `"name: title title"` lines.
    static func layout(_ controller: AnyFetchedResultsController) -> [String] {
        (controller.sections ?? []).map { section in
            let titles = (section.objects ?? []).compactMap { ($0 as? Card)?.title }
            return "\(section.name): \(titles.joined(separator: " "))"
        }
    }

    /// The controller's contents as a list of titles.
    static func list(_ controller: AnyFetchedResultsController) -> SimulatedList<String> {
        SimulatedList((controller.sections ?? []).map { section in
            (name: section.name, items: (section.objects ?? []).compactMap { ($0 as? Card)?.title })
        })
    }

    /// A fresh fetch of the request, in sections named as the controller names them.
    static func fetchedList(_ request: FetchRequest<Card>, sectionKey: String?, in context: ManagedObjectContext) throws -> SimulatedList<String> {
        var list = SimulatedList<String>()
        for card in try context.fetch(request) {
            let name = sectionKey == nil ? "" : (card.value(forKey: sectionKey ?? "")).map { "\($0)" } ?? ""
            if list.sections.last?.name == name {
                list.sections[list.sections.count - 1].items.append(card.title)
            } else {
                list.sections.append(.init(name, [card.title]))
            }
        }
        if sectionKey == nil, list.sections.isEmpty { list.sections = [.init("", [])] }
        return list
    }

    /// A batch's changes as `"move b [0,1]→[0,0]"` and `"section insert 1 C"` strings.
    static func describe(_ batch: FetchedResultsChanges, names: [ManagedObjectID: String]) -> Set<String> {
        Set(batch.sectionChanges.map { "section \($0.type) \($0.sectionIndex) \($0.name)" }
            + batch.objectChanges.map { change in
                "\(change.type) \(names[change.objectID] ?? "?") \(path(change.indexPath))→\(path(change.newIndexPath))"
            })
    }

    /// Titles by object ID, for ``describe(_:names:)``.
    static func names(_ cards: some Sequence<Card>) -> [ManagedObjectID: String] {
        Dictionary(cards.map { ($0.objectID, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    /// What an exit test's process wrote to standard error (a precondition's message).
    static func standardError(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    static func path(_ indexPath: IndexPath?) -> String {
        indexPath.map { "[\($0.section),\($0.row)]" } ?? "-"
    }
}

/// A classic delegate that logs each callback as text, optionally running code in them.
class CallbackLog: FetchedResultsControllerDelegate, @unchecked Sendable {
    var log: [String] = []
    var onObjectChange: ((AnyFetchedResultsController, Any, FetchedResultsChangeType) -> Void)?
    var onDidChange: ((AnyFetchedResultsController) -> Void)?

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { log.append("will") }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let name = (anObject as? Card)?.title ?? "?"
        log.append("\(type) \(name) \(Spec.path(indexPath))→\(Spec.path(newIndexPath))")
        onObjectChange?(controller, anObject, type)
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        log.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        log.append("did")
        onDidChange?(controller)
    }
}

/// Implements the difference method besides the classic ones.
final class DifferenceAndClassicLog: CallbackLog, FetchedResultsControllerDifferenceDelegate, @unchecked Sendable {
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        log.append("difference")
    }
}

/// Implements all six change methods: snapshot, difference and the four classic ones.
final class EveryMethodLog: CallbackLog, FetchedResultsControllerSnapshotDelegate, FetchedResultsControllerDifferenceDelegate,
    @unchecked Sendable {
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        log.append("snapshot")
    }

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        log.append("difference")
    }
}

/// Lines appended from several threads.
final class SharedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
