import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// A delegate of a controller of countries (sectioned by name, sorted by name and code) that
/// keeps, with each change batch, a fresh fetch made when the batch ends; ``verify()`` then
/// applies the batches one after another, with UIKit's rules, from the contents at the first
/// fetch, checking that each gives its fresh fetch.
///
/// Rows are named by their objects (not their IDs, which change from temporary to permanent
/// without a batch), so the checker keeps every object it has seen.
final class ConstraintBatchChecker: FetchedResultsControllerDelegate, @unchecked Sendable {
    let controller: FetchedResultsController<Country>
    private let context: ManagedObjectContext
    private var initial = SimulatedList<String>()
    private var steps: [(changes: FetchedResultsChanges, labels: [ManagedObjectID: String], fresh: SimulatedList<String>)] = []
    private var current = FetchedResultsChanges()
    private var labels: [ManagedObjectID: String] = [:]
    private var seen: [ObjectIdentifier: ManagedObject] = [:]

    /// The batches delivered so far.
    var batches: [FetchedResultsChanges] { steps.map(\.changes) }

    /// Makes the controller on `context` and fetches. Call on the context's queue.
    init(_ context: ManagedObjectContext) throws {
        self.context = context
        let request = Country.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "name"), FetchSortDescriptor(key: "code")]
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "name", cacheName: nil)
        controller.delegate = self
        try controller.performFetch()
        initial = try freshFetch()
    }

    private func label(_ object: ManagedObject) -> String {
        if let known = labels[object.objectID] { return known }
        seen[ObjectIdentifier(object)] = object
        let label = "\((object as? Country)?.code ?? "?")#\(UInt(bitPattern: ObjectIdentifier(object).hashValue) % 100_000)"
        labels[object.objectID] = label
        return label
    }

    /// What a fresh fetch of the context gives now, sectioned as the controller sections.
    private func freshFetch() throws -> SimulatedList<String> {
        let request = Country.fetchRequest()
        request.sortDescriptors = controller.fetchRequest.sortDescriptors
        var sections: [(name: String, items: [String])] = []
        for country in try context.fetch(request) {
            let name = country.name ?? ""
            if sections.last?.name != name { sections.append((name, [])) }
            sections[sections.count - 1].items.append(label(country))
        }
        return SimulatedList(sections)
    }

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        current = FetchedResultsChanges()
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? ManagedObject else { return }
        _ = label(object)
        current.objectChanges.append(.init(type: type, objectID: object.objectID, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        current.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        do {
            let fresh = try freshFetch()
            steps.append((current, labels, fresh))
        } catch {
            Issue.record("a fresh fetch failed inside the delegate: \(error)")
        }
    }

    /// Applies every batch so far, each checked against its fresh fetch, under both of UIKit's
    /// mappings; returns the number of batches.
    @discardableResult
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        for mapping in FetchedResultsBatchMapping.allCases {
            var list = initial
            for (number, step) in steps.enumerated() {
                do {
                    list = try list.verifyApplying(step.changes, mapping: mapping, moveRules: mapping == .uikitMoves ? .lenient : .strict,
                                                   expected: step.fresh) { id in
                        guard let label = step.labels[id] else { throw BatchUpdateError("no label for \(id)") }
                        return label
                    }
                } catch {
                    Issue.record("batch \(number + 1) of \(steps.count): \(error)", sourceLocation: sourceLocation)
                    return steps.count
                }
            }
        }
        return steps.count
    }
}
