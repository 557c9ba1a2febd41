import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenarios 1, 2 and 5: the initial fetch against the raw floor, a relaunch from the section
/// cache, and the memory a fetched controller holds per row.
struct FetchScenarios {
    let dataSet: DataSet
    let runs: Int

    func run() throws -> [Figure] {
        let rows = dataSet.rows
        let floor = try floorSamples()
        let fetch = try fetchSamples(cacheName: nil)
        let cacheName = "scoreboard-\(rows)"
        AnyFetchedResultsController.deleteCache(withName: cacheName)
        _ = try fetchSamples(cacheName: cacheName, runs: 1)
        SectionCacheFiles.waitForWrites()
        let relaunch = try fetchSamples(cacheName: cacheName)
        return [
            Figure("1. initial fetch (batch 20, sectioned)", rows: rows, samples: fetch,
                   baseline: ("raw ordered IDs + grouped count", floor), target: "≤ 1.5× baseline"),
            Figure("2. relaunch with a valid section cache", rows: rows, samples: relaunch,
                   baseline: ("1. initial fetch", fetch), target: "≤ 0.2× baseline"),
            try memoryFigure(),
        ]
    }

    /// The floor: the ordered keys from the sort index and the section counts, straight through GRDB.
    private func floorSamples() throws -> Samples {
        let database = try DatabaseQueue(path: dataSet.url.path, configuration: DataSet.rawConfiguration)
        var samples = Samples()
        for run in 0...runs {
            let start = now()
            let (keys, sections) = try database.read { db in
                (try Int64.fetchAll(db, sql: Team.orderedKeysSQL), try Row.fetchAll(db, sql: Team.sectionCountsSQL))
            }
            let elapsed = now() - start
            guard keys.count == dataSet.rows, !sections.isEmpty else {
                throw BenchError(description: "the floor read \(keys.count) of \(dataSet.rows) rows")
            }
            if run > 0 { samples.add(milliseconds(elapsed)) }  // the first run warms the file pages
        }
        return samples
    }

    private func fetchSamples(cacheName: String?, runs: Int? = nil) throws -> Samples {
        try Self.fetchSamples(of: dataSet, cacheName: cacheName, runs: runs ?? self.runs)
    }

    /// `performFetch` of the scoreboard controller, each run in a freshly opened container.
    static func fetchSamples(of store: any TeamStore, cacheName: String?, runs: Int) throws -> Samples {
        var samples = Samples()
        for _ in 0..<runs {
            let container = try store.makeContainer()
            let context = container.newBackgroundContext()
            let probe = DeliveryProbe()
            let elapsed = try context.performAndWait { () throws -> UInt64 in
                let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                          sectionNameKeyPath: "zone", cacheName: cacheName)
                controller.delegate = probe
                let start = now()
                try controller.performFetch()
                let elapsed = now() - start
                try check(controller, rows: store.rows)
                return elapsed
            }
            samples.add(milliseconds(elapsed))
        }
        return samples
    }

    /// Scenario 5: resident memory added by a fetched controller, per result row.
    private func memoryFigure() throws -> Figure {
        let container = try dataSet.openContainer()
        let context = container.newBackgroundContext()
        var samples = Samples()
        for _ in 0..<3 {
            let before = ResidentMemory.bytes()
            let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                      sectionNameKeyPath: "zone", cacheName: nil)
            try context.performAndWait { try controller.performFetch() }
            let after = ResidentMemory.bytes()
            samples.add(Double(after - before) / Double(dataSet.rows))
            withExtendedLifetime(controller) {}
        }
        return Figure("5. resident memory per row after the fetch", rows: dataSet.rows, samples: samples,
                      unit: "bytes/row", target: "≤ 40 bytes/row")
    }

    static func check(_ controller: FetchedResultsController<Team>, rows: Int) throws {
        let fetched = controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? 0
        guard fetched == rows else { throw BenchError(description: "the controller holds \(fetched) of \(rows) rows") }
    }
}
