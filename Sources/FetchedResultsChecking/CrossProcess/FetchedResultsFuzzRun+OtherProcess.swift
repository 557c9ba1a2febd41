import Foundation
import OpenCoreData

// Batches made by another process: its saves and batch requests reach this process through the
// store's files and history, with nothing said between the processes but "committed N" on a pipe,
// which only tells the run how long to wait before checking.

extension FetchedResultsFuzzRun {
    /// How long a commit of the other process may take to reach the controllers' context before
    /// the run says it never did.
    static let otherProcessDeadline: TimeInterval = 10

    /// One batch in the other process: a save of `count` random changes, a batch request, or,
    /// one time in 40, a save the process is killed in the middle of. Returns once this
    /// process's contexts have merged whatever committed.
    func makeBatch(in otherProcess: CardWriterProcess, count: Int, _ report: inout FuzzReport) throws {
        let roll = changes.random.next() % 40
        let seed = changes.random.next()
        let generation: Int64
        switch roll {
        case 0:
            let delay = Double(seed % 12) / 1000
            try otherProcess.killWhileSaving("stall \(seed) \(1 + seed % 8)", after: delay)
            generation = try CardWriterProcess.generation(of: store.container.persistentStoreCoordinator)
            changes.operations.append("other process killed \(Int(delay * 1000)) ms into a save")
            report.otherProcessKills += 1
        case 1...10:
            generation = try otherProcess.run("batch \(seed)")
            changes.operations.append("other process batch request \(seed)")
            report.otherProcessBatches += 1
        default:
            generation = try otherProcess.run("changes \(seed) \(count)")
            changes.operations.append("other process save of \(count) changes (\(seed))")
            report.otherProcessBatches += 1
        }
        try waitUntilMerged(through: generation)
    }

    /// Waits until the store's commits up to `generation` are queued to the contexts, woken by
    /// the store's files alone, then lets the view context merge them.
    private func waitUntilMerged(through generation: Int64) throws {
        let coordinator = store.container.persistentStoreCoordinator
        let deadline = Date().addingTimeInterval(Self.otherProcessDeadline)
        while coordinator.generationGivenToContexts < generation {
            guard Date() < deadline else {
                throw CardWriterProcess.Failure.writer("its commit \(generation) did not reach this process in \(Int(Self.otherProcessDeadline)) s (contexts are at \(coordinator.generationGivenToContexts))")
            }
            Thread.sleep(forTimeInterval: 0.000_5)
        }
        view.performAndWait {}
    }
}
