import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The table of a seed app in a test: it changes its rows only by applying the batches the app's
/// controller reports, with UIKit's batch-update rules, and checks each result against a fresh
/// fetch from another context. Pass its ``recorder`` to the app as the table.
final class TableMirror<Result: ManagedObject> {
    /// The app's table: the controller's delegate.
    let recorder = ClassicRecorder()
    /// The rows the table shows.
    private(set) var rows = SimulatedList<ManagedObjectID>()
    private let container: PersistentContainer
    private let request: FetchRequest<Result>
    private var context: ManagedObjectContext?

    init(container: PersistentContainer, request: FetchRequest<Result>) {
        self.container = container
        self.request = request
    }

    /// Shows what the controller holds now, as a table's first `reloadData`.
    func load(_ controller: FetchedResultsController<Result>) throws {
        context = controller.managedObjectContext
        rows = controller.managedObjectContext.performAndWait {
            SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
        }
        recorder.batches = []
        #expect(rows == (try fetched()), "the controller's first rows are not what the store holds")
    }

    /// What a new context fetches from the store.
    func fetched() throws -> SimulatedList<ManagedObjectID> {
        let fresh = container.newBackgroundContext()
        let ids = try fresh.performAndWait { try fresh.fetch(request).map(\.objectID) }
        return SimulatedList(items: ids)
    }

    /// Applies the batches reported since the last call, each to the rows the one before left,
    /// with both ways a table's delegate maps moves and updates, and checks the rows against a
    /// fresh fetch (UIKit's row-count check included).
    ///
    /// - Returns: The batches, their object IDs as the table's objects have them now.
    @discardableResult
    func applyReportedBatches() throws -> [FetchedResultsChanges] {
        let batches = recorder.batches.map(current)
        let countsAtWillChange = recorder.countsAtWillChange
        recorder.batches = []
        recorder.countsAtWillChange = []
        for (batch, countAtWillChange) in zip(batches, countsAtWillChange) {
            #expect(countAtWillChange == rows.sections.first?.items.count, "at controllerWillChangeContent the controller must still show the old rows")
            let expected = try fetched()
            let moved = try rows.verifyApplying(batch, mapping: .uikitMoves, expected: expected)
            rows = try rows.verifyApplying(batch, mapping: .deleteAndInsert, expected: expected)
            #expect(moved == rows)
        }
        return batches
    }

    /// A batch with the IDs the table's objects have now: a table holds objects, which keep
    /// their identity when a save makes their IDs permanent.
    private func current(_ batch: FetchedResultsChanges) -> FetchedResultsChanges {
        guard let context else { return batch }
        return context.performAndWait {
            FetchedResultsChanges(sectionChanges: batch.sectionChanges, objectChanges: batch.objectChanges.map {
                .init(type: $0.type, objectID: context.object(with: $0.objectID).objectID, indexPath: $0.indexPath,
                      newIndexPath: $0.newIndexPath)
            })
        }
    }
}
