import FetchedResultsChecking
import Foundation
import OpenCoreData

/// The ten controllers scenario 10 keeps live: different predicates, sorts and sections
/// over the teams, each holding some teams of the zone the batch update changes
/// (``BatchUpdateScenario/zone``), so that each must deliver a batch.
enum LiveControllers {
    struct Configuration {
        var name: String
        var predicate: FetchPredicate?
        var sortDescriptors: [FetchSortDescriptor]
        var sectionNameKeyPath: String?
        var fetchBatchSize = 20

        func request() -> FetchRequest<Team> {
            let request = Team.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = sortDescriptors
            request.fetchBatchSize = fetchBatchSize
            return request
        }
    }

    /// The configurations for a data set of `rows` teams.
    static func configurations(rows: Int) throws -> [Configuration] {
        let sort = { (key: String, ascending: Bool) in FetchSortDescriptor(key: key, ascending: ascending) }
        // The second half of the teams by creation date (see DataSet.insertTeam).
        let midpoint = Date(timeIntervalSince1970: 1_700_000_000 + Double(rows / 2))
        return [
            Configuration(name: "scoreboard: every team by zone, most wins first, sectioned by zone", predicate: nil,
                          sortDescriptors: Team.sortDescriptors, sectionNameKeyPath: "zone"),
            Configuration(name: "the updated zone, most wins first",
                          predicate: try FetchPredicate(format: "zone == %@", BatchUpdateScenario.zone),
                          sortDescriptors: [sort("wins", false), sort("name", true)]),
            Configuration(name: "three zones by name, sectioned by zone",
                          predicate: try FetchPredicate(format: "zone IN %@", ["Zone 06", BatchUpdateScenario.zone, "Zone 08"]),
                          sortDescriptors: [sort("zone", true), sort("name", true)], sectionNameKeyPath: "zone"),
            Configuration(name: "900 wins or more, most first", predicate: try FetchPredicate(format: "wins >= 900"),
                          sortDescriptors: [sort("wins", false), sort("name", true)]),
            Configuration(name: "fewer than 100 wins, by creation date", predicate: try FetchPredicate(format: "wins < 100"),
                          sortDescriptors: [sort("created", true)]),
            Configuration(name: "names beginning with 'Team 1', by name", predicate: try FetchPredicate(format: "name BEGINSWITH 'Team 1'"),
                          sortDescriptors: [sort("name", true)]),
            Configuration(name: "every team, newest first", predicate: nil, sortDescriptors: [sort("created", false)]),
            Configuration(name: "400 to 600 wins, fewest first", predicate: try FetchPredicate(format: "wins BETWEEN {400, 600}"),
                          sortDescriptors: [sort("wins", true), sort("created", true)]),
            // No fetch limit: it holds at the fetch only (as in Core Data), so a fresh fetch
            // would not be what the controller rightly shows after changes.
            Configuration(name: "the newer half of the teams, most wins first",
                          predicate: try FetchPredicate(format: "created >= %@", midpoint),
                          sortDescriptors: [sort("wins", false), sort("name", true)]),
            Configuration(name: "every team but zone 01, zones in reverse, fewest wins first, sectioned by zone",
                          predicate: try FetchPredicate(format: "zone != 'Zone 01'"),
                          sortDescriptors: [sort("zone", false), sort("wins", true), sort("created", true)], sectionNameKeyPath: "zone"),
        ]
    }
}

/// A delegate that records each batch as a value, notes when its last callback returns, and
/// wakes the waiting benchmark at the first batch.
final class BatchProbe: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Written on the controller's queue; read after `waitForFirstBatch` returned true (the
    // semaphore orders the accesses) or after the context's queue went quiet.
    private(set) var batches: [FetchedResultsChanges] = []
    private(set) var firstDeliveredAt: UInt64 = 0
    private var current = FetchedResultsChanges()
    private let delivered = DispatchSemaphore(value: 0)

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        current = FetchedResultsChanges()
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let id = (anObject as? ManagedObject)?.objectID else { return }
        current.objectChanges.append(.init(type: type, objectID: id, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        current.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        batches.append(current)
        if batches.count == 1 {
            firstDeliveredAt = now()
            delivered.signal()
        }
    }

    /// Waits until `deadline` for the first batch; false if none came.
    func waitForFirstBatch(until deadline: DispatchTime) -> Bool {
        delivered.wait(timeout: deadline) == .success
    }
}
