import FetchedResultsChecking
import Foundation
import OpenCoreData

/// The live controllers of a server process: `count` small lists (a zone's teams in a band of
/// ten wins, most wins first; every tenth a band of five wins over every zone, sectioned by
/// zone), a thousand to a context, all reporting to one ``LastDelivery``, as pages a server keeps
/// open for its clients. A one-team change concerns the scoreboard and a few of them.
final class ManyControllers {
    let contexts: [ManagedObjectContext]
    let last = LastDelivery()
    private var controllers: [FetchedResultsController<Team>] = []

    static let perContext = 1_000

    /// Fetches `count` controllers on new contexts of `container`, which merge changes
    /// automatically.
    init(count: Int, container: PersistentContainer) throws {
        contexts = (0..<max(1, (count + Self.perContext - 1) / Self.perContext)).map { _ in
            let context = container.newBackgroundContext()
            context.automaticallyMergesChangesFromParent = true
            return context
        }
        let start = now()
        for number in 0..<count {
            let context = contexts[number / Self.perContext]
            let controller = FetchedResultsController(fetchRequest: try Self.request(number), managedObjectContext: context,
                                                      sectionNameKeyPath: number % 10 == 9 ? "zone" : nil, cacheName: nil)
            try context.performAndWait {
                controller.delegate = last
                try controller.performFetch()
            }
            controllers.append(controller)
            if (number + 1) % 2_000 == 0 { progress("\(number + 1) of \(count) controllers fetched") }
        }
        progress(String(format: "%d controllers fetched in %.1f s", count, milliseconds(now() - start) / 1000))
    }

    private static func request(_ number: Int) throws -> FetchRequest<Team> {
        let request = Team.fetchRequest()
        request.fetchBatchSize = 20
        let band = (number / Team.zones.count * 10) % 1000
        if number % 10 == 9 {
            request.predicate = try FetchPredicate(format: "wins >= %d AND wins < %d", band, band + 5)
            request.sortDescriptors = [FetchSortDescriptor(key: "zone"), FetchSortDescriptor(key: "name")]
        } else {
            request.predicate = try FetchPredicate(format: "zone == %@ AND wins >= %d AND wins < %d",
                                                   Team.zones[number % Team.zones.count], band, band + 10)
            request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "name")]
        }
        return request
    }

    /// Adds the sectioned scoreboard of every team, on the first context, reporting to
    /// `delegate`, and fetches it.
    func scoreboard(delegate: any FetchedResultsControllerDelegate) throws -> FetchedResultsController<Team> {
        let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: contexts[0],
                                                  sectionNameKeyPath: "zone", cacheName: nil)
        try contexts[0].performAndWait {
            controller.delegate = delegate
            try controller.performFetch()
        }
        return controller
    }

    /// Waits until every context has run what was queued on it: the batches of a merge
    /// delivered to all its controllers.
    func waitUntilIdle() {
        for context in contexts { context.performAndWait {} }
    }
}

/// The delegate of many controllers: when the last batch was delivered, and how many.
final class LastDelivery: FetchedResultsControllerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var lastAt: UInt64 = 0
    private var delivered = 0

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        let time = now()
        lock.withLock {
            lastAt = Swift.max(lastAt, time)
            delivered += 1
        }
    }

    /// The time of the last batch delivered, and the number of batches, since the last call.
    func take() -> (at: UInt64, batches: Int) {
        lock.withLock {
            defer { delivered = 0 }
            return (lastAt, delivered)
        }
    }
}
