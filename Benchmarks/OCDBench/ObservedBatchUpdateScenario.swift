import FetchedResultsChecking
import Foundation
import OpenCoreData

/// Scenario 10: scenario 9's `BatchUpdateRequest` (one more win for every team of one zone, a
/// twentieth of the rows) while the ten controllers of ``LiveControllers`` are live, each on its
/// own context that merges automatically. Timed from the request's start until every delegate's
/// `controllerDidChangeContent` returned, against fetching the ten controllers from scratch
/// (`performFetch` of ten new controllers on new contexts, all at once, as the ten merges run),
/// in the same run. Each batch delivered is checked: applied with UIKit's rules to what its
/// controller showed, it must give what the new controller fetched.
struct ObservedBatchUpdateScenario {
    let dataSet: DataSet
    let runs: Int
    let scratch: URL
    /// How long to wait for the batches after the request returned.
    var deliveryTimeout: TimeInterval = 60

    /// Not every controller delivered a batch in time.
    struct NotDelivered: Error, CustomStringConvertible {
        var description: String
    }

    /// One controller kept live through the batch update.
    private struct Live {
        let configuration: LiveControllers.Configuration
        let context: ManagedObjectContext
        let controller: FetchedResultsController<Team>
        let probe = BatchProbe()
        let before: SimulatedList<ManagedObjectID>

        init(_ configuration: LiveControllers.Configuration, container: PersistentContainer) throws {
            self.configuration = configuration
            context = container.newBackgroundContext()
            context.automaticallyMergesChangesFromParent = true
            let controller = FetchedResultsController(fetchRequest: configuration.request(), managedObjectContext: context,
                                                      sectionNameKeyPath: configuration.sectionNameKeyPath, cacheName: nil)
            let probe = probe
            before = try context.performAndWait {
                controller.delegate = probe
                try controller.performFetch()
                return ObservedBatchUpdateScenario.list(controller)
            }
            self.controller = controller
        }
    }

    func run() throws -> [Figure] {
        let configurations = try LiveControllers.configurations(rows: dataSet.rows)
        var delivered = Samples(), afterCommit = Samples(), refetched = Samples()
        var updatedRows = 0
        for run in 1...runs {
            let url = scratch.appendingPathComponent("observed-batch-update.sqlite")
            try dataSet.copy(to: url)
            defer { DataSet.removeStore(at: url) }
            let container = try dataSet.openContainer(at: url)
            progress("\(dataSet.rows) rows: run \(run) of \(runs): fetching the \(configurations.count) live controllers")
            let live = try configurations.map { try Live($0, container: container) }
            let writer = container.newBackgroundContext()
            let request = try BatchUpdateScenario.request()
            let (start, committed, updated) = try writer.performAndWait { () throws -> (UInt64, UInt64, Int) in
                let start = now()
                let result = try writer.execute(request) as? BatchUpdateResult
                return (start, now(), result?.result as? Int ?? 0)
            }
            guard updated > 0 else { throw BenchError(description: "the batch update changed no row") }
            updatedRows = updated
            let deadline = DispatchTime.now() + deliveryTimeout
            let silent = live.filter { !$0.probe.waitForFirstBatch(until: deadline) }
            guard silent.isEmpty else {
                let which = silent.count == live.count ? "none of the \(live.count) live controllers"
                    : "\(silent.count) of \(live.count) live controllers (\(silent.map(\.configuration.name).joined(separator: "; ")))"
                throw NotDelivered(description: """
                    scenario 10 at \(dataSet.rows) rows: \(which) delivered a change batch within \(Int(deliveryTimeout)) s \
                    of the BatchUpdateRequest of \(updated) rows: contexts that merge automatically do not merge batch \
                    requests (the change feed of issue 13), or merging this one took longer.
                    """)
            }
            let last = live.map(\.probe.firstDeliveredAt).max() ?? committed
            // Which controllers bound the figure.
            for controller in live {
                let changes = controller.probe.batches.first.map { $0.objectChanges.count } ?? 0
                let after = String(format: "%.1f", milliseconds(controller.probe.firstDeliveredAt - committed))
                progress("  \(after) ms after the request returned: \(changes) changes, \(controller.configuration.name)")
            }
            // Let each context finish what it was doing, so that every batch it delivers is seen.
            for controller in live { controller.context.performAndWait {} }
            let (refetchTime, expected) = try refetch(configurations, container: container)
            for (controller, fresh) in zip(live, expected) { try check(controller, against: fresh) }
            delivered.add(milliseconds(last - start))
            afterCommit.add(milliseconds(last - committed))
            refetched.add(refetchTime)
        }
        let what = "10. BatchUpdateRequest of \(updatedRows) rows → all 10 live controllers' delegates done"
        let baseline = "10 controllers fetched from scratch"
        return [
            Figure(what, rows: dataSet.rows, samples: delivered, baseline: (baseline, refetched), target: "≤ 0.2× baseline"),
            Figure("10. … from the request's return", rows: dataSet.rows, samples: afterCommit, baseline: (baseline, refetched)),
        ]
    }

    /// Fetches a new controller of each configuration on a new context, all at once; returns the
    /// time until the last `performFetch()` returned and what each controller holds.
    private func refetch(_ configurations: [LiveControllers.Configuration],
                         container: PersistentContainer) throws -> (Double, [SimulatedList<ManagedObjectID>]) {
        let fetches = configurations.map { configuration in
            let context = container.newBackgroundContext()
            return (context, FetchedResultsController(fetchRequest: configuration.request(), managedObjectContext: context,
                                                      sectionNameKeyPath: configuration.sectionNameKeyPath, cacheName: nil))
        }
        let group = DispatchGroup()
        let outcome = Outcome(count: fetches.count)
        let start = now()
        for (index, (context, controller)) in fetches.enumerated() {
            group.enter()
            context.perform {
                do {
                    try controller.performFetch()
                    outcome.finish(index, at: now(), error: nil)
                } catch {
                    outcome.finish(index, at: now(), error: error)
                }
                group.leave()
            }
        }
        group.wait()
        if let error = outcome.error { throw error }
        let lists = fetches.map { context, controller in context.performAndWait { Self.list(controller) } }
        return (milliseconds(outcome.lastFinish - start), lists)
    }

    /// Each batch the controller delivered, applied with UIKit's rules (under both mappings of a
    /// table's delegate) to what it showed before, must give `expected`.
    private func check(_ live: Live, against expected: SimulatedList<ManagedObjectID>) throws {
        let batches = live.probe.batches
        do {
            for mapping in FetchedResultsBatchMapping.allCases {
                var list = live.before
                for (index, batch) in batches.enumerated() {
                    if index == batches.count - 1 {
                        list = try list.verifyApplying(batch, mapping: mapping, expected: expected)
                    } else {
                        list = try list.applying(ListBatch(batch, mapping: mapping))
                    }
                }
            }
        } catch {
            throw BenchError(description: "scenario 10: the controller '\(live.configuration.name)' delivered \(batches.count) batch(es) that do not give a fresh fetch: \(error)")
        }
    }

    /// What a controller shows, as sections of object IDs. Reading them creates a fault per row,
    /// which the context does not keep.
    fileprivate static func list(_ controller: FetchedResultsController<Team>) -> SimulatedList<ManagedObjectID> {
        SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
    }

    /// The fetches' finishing times and first error, from the contexts' queues.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var finishes: [UInt64]
        private var firstError: (any Error)?

        init(count: Int) { finishes = Array(repeating: 0, count: count) }

        func finish(_ index: Int, at time: UInt64, error: (any Error)?) {
            lock.withLock {
                finishes[index] = time
                if firstError == nil { firstError = error }
            }
        }

        var lastFinish: UInt64 { lock.withLock { finishes.max() ?? 0 } }
        var error: (any Error)? { lock.withLock { firstError } }
    }
}
