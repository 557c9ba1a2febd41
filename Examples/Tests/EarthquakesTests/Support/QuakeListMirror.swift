import EarthquakesApp
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The app's quake list: a fetched results controller on the view context (or another), newest
/// quake first,
/// and the rows a table would show, changed only by applying the batches the controller reported
/// (with UIKit's batch-update rules, both ways a table maps moves) and checked against a fresh
/// fetch after each one.
final class QuakeListMirror {
    let controller: FetchedResultsController<Quake>
    private let recorder = ClassicRecorder()
    private let container: PersistentContainer
    private let context: ManagedObjectContext
    private(set) var rows: SimulatedList<ManagedObjectID>
    /// How many of the recorder's batches are applied to ``rows``.
    private var applied = 0

    /// - Parameters:
    ///   - provider: The app's data layer.
    ///   - context: The controller's context: the view context unless given another.
    init(_ provider: QuakesProvider, context: ManagedObjectContext? = nil) throws {
        container = provider.container
        let viewContext = context ?? provider.container.viewContext
        self.context = viewContext
        let recorder = recorder
        let (controller, ids) = try viewContext.performAndWait {
            let controller = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: viewContext,
                                                      sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return (controller, controller.fetchedObjects?.map(\.objectID) ?? [])
        }
        self.controller = controller
        rows = SimulatedList(items: ids)
        #expect(rows == (try fetched()), "the controller's first rows are not what the store holds")
    }

    /// The list's request: every quake, newest first.
    static func request() -> FetchRequest<Quake> {
        let request = FetchRequest<Quake>(entityName: "Quake")
        request.sortDescriptors = [FetchSortDescriptor(key: "time", ascending: false)]
        return request
    }

    /// What a new context fetches now.
    func fetched() throws -> SimulatedList<ManagedObjectID> {
        let context = container.newBackgroundContext()
        return SimulatedList(items: try context.performAndWait { try context.fetch(Self.request()).map(\.objectID) })
    }

    /// How many rows the controller holds now.
    var controllerCount: Int {
        context.performAndWait { controller.fetchedObjects?.count ?? 0 }
    }

    /// Applies the batches reported since the last call, each checked against a fresh fetch:
    /// call it once the store has stopped changing.
    ///
    /// - Returns: The batches applied.
    @discardableResult
    func applyReportedBatches() throws -> [FetchedResultsChanges] {
        try context.performAndWait {
            #expect(recorder.failures.isEmpty, "the controller reported failures: \(recorder.failures)")
            let batches = Array(recorder.batches[applied...])
            applied = recorder.batches.count
            for batch in batches {
                let expected = try fetched()
                let moved = try rows.verifyApplying(batch, mapping: .uikitMoves, expected: expected)
                rows = try rows.verifyApplying(batch, mapping: .deleteAndInsert, expected: expected)
                #expect(moved == rows)
            }
            return batches
        }
    }

    /// Waits, up to `seconds`, until the controller holds `count` rows: the history merge the
    /// remote-change observer starts runs on its own.
    func waitForCount(_ count: Int, seconds: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while controllerCount != count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(controllerCount == count, "the controller did not reach \(count) rows in \(seconds) s")
    }
}
