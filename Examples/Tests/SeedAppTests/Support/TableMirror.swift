import ExampleSupport
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The rows an app's table shows in a test: it changes them only by applying the batches the
/// app's ``TableStandIn`` collected, with UIKit's batch-update rules, and checks each result
/// against a fresh fetch from another context.
///
/// For an app that is given its table, pass it ``table`` (a ``CountingTable``); for one that
/// makes its own, give the mirror that one.
final class TableMirror {
    /// The app's table: the controller's delegate.
    let table: TableStandIn
    /// The rows the table shows.
    private(set) var rows = SimulatedList<ManagedObjectID>()
    private let fresh: () throws -> SimulatedList<ManagedObjectID>
    private var context: ManagedObjectContext?
    /// How many of the table's batches are already applied to ``rows``.
    private var applied = 0

    /// - Parameters:
    ///   - table: The app's table; by default a new one for the test to give the app.
    ///   - container: The store, for fresh fetches.
    ///   - request: The app's request.
    ///   - sectionKey: The key path of the sections, if any.
    init<Result: ManagedObject>(table: TableStandIn = CountingTable(), container: PersistentContainer,
                                request: FetchRequest<Result>, sectionKey: String? = nil) {
        self.table = table
        fresh = {
            let context = container.newBackgroundContext()
            return try context.performAndWait { try freshRows(request, sectionKey: sectionKey, in: context) }
        }
    }

    /// Shows what the controller holds now, as a table's first `reloadData`; batches reported
    /// before are not applied.
    func load(_ controller: AnyFetchedResultsController) throws {
        let context = controller.managedObjectContext
        self.context = context
        (rows, applied) = context.performAndWait {
            (SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) }), table.batches.count)
        }
        #expect(rows == (try fetched()), "the controller's first rows are not what the store holds")
    }

    /// What a new context fetches from the store, in sections as the controller makes them.
    func fetched() throws -> SimulatedList<ManagedObjectID> {
        try fresh()
    }

    /// Applies the batches reported since the last call, each to the rows the one before left,
    /// with both ways a table's delegate maps moves and updates, and checks the rows against a
    /// fresh fetch (UIKit's row-count check included).
    ///
    /// Call it after each change: the rows are compared with a fetch made now.
    ///
    /// - Returns: The batches, their object IDs as the table's objects have them now.
    @discardableResult
    func applyReportedBatches() throws -> [FetchedResultsChanges] {
        guard let context else { return [] }
        return try context.performAndWait {
            let batches = table.batches[applied...].map(current)
            let countsAtWillChange = (table as? CountingTable).map { Array($0.countsAtWillChange[applied...]) }
            applied = table.batches.count
            for (index, batch) in batches.enumerated() {
                if let countsAtWillChange {
                    #expect(countsAtWillChange[index] == rows.sections.reduce(0) { $0 + $1.items.count },
                            "at controllerWillChangeContent the controller must still show the old rows")
                }
                // A table holds objects, which keep their identity when a save makes their IDs permanent.
                let old = rows.map(current)
                let expected = try fetched()
                // Lenient: a move out of a deleted section or into an inserted one is what the
                // delete-and-insert mapping is for; with one section there is no such move.
                let moved = try old.verifyApplying(batch, mapping: .uikitMoves, moveRules: .lenient, expected: expected)
                rows = try old.verifyApplying(batch, mapping: .deleteAndInsert, expected: expected)
                #expect(moved == rows)
            }
            return batches
        }
    }

    /// A batch with the IDs the table's objects have now. Call it on the context's queue.
    private func current(_ batch: FetchedResultsChanges) -> FetchedResultsChanges {
        FetchedResultsChanges(sectionChanges: batch.sectionChanges, objectChanges: batch.objectChanges.map {
            .init(type: $0.type, objectID: current($0.objectID), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
        })
    }

    private func current(_ id: ManagedObjectID) -> ManagedObjectID {
        context?.object(with: id).objectID ?? id
    }
}

/// The rows of a fresh fetch of `request`, in sections by the string at `sectionKey` (one
/// unnamed section without one), as a controller should show them.
func freshRows<T: ManagedObject>(_ request: FetchRequest<T>, sectionKey: String?, in context: ManagedObjectContext) throws
    -> SimulatedList<ManagedObjectID> {
    let objects = try context.fetch(request)
    guard let sectionKey else { return SimulatedList(items: objects.map(\.objectID)) }
    var sections: [SimulatedList<ManagedObjectID>.Section] = []
    for object in objects {
        let name = object.value(forKey: sectionKey) as? String ?? ""
        if sections.last?.name != name { sections.append(.init(name, [])) }
        sections[sections.count - 1].items.append(object.objectID)
    }
    return SimulatedList(sections: sections)
}
