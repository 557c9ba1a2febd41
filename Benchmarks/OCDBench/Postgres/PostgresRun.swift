#if Postgres
import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `--store postgres://…`: scenarios 1, 3, 4 and 6 on the PostgreSQL store, each beside its raw
/// postgres-nio baseline in the same run; with `--other-process` or `--ingest`, the runs across
/// processes instead.
struct PostgresRun {
    let options: BenchOptions
    let server: String

    func run() throws {
        if options.otherProcess {
            try PostgresDeliveryRun(options: options, server: server).run()
            return
        }
        if options.ingest {
            try IngestRun(options: options, server: server).run()
            return
        }
        let figures = try measure()
        print(Report.table(figures))
        if let path = options.jsonPath {
            try Report.writeJSON(figures, to: path)
            progress("figures written to \(path)")
        }
    }

    private var scenarios: Set<Int> { options.scenarios.intersection(BenchOptions.postgresScenarios) }

    private func measure() throws -> [Figure] {
        var figures: [Figure] = []
        let bulkRuns = max(3, options.runs / 4)
        for rows in options.rowCounts.sorted() where !scenarios.isDisjoint(with: [1, 3, 4]) {
            let dataSet = PostgresDataSet(rows: rows, server: server)
            try dataSet.build()
            if scenarios.contains(1) {
                progress("\(rows) rows: initial fetch, ours and raw")
                let floor = try PostgresFloor(dataSet: dataSet).samples(runs: options.runs)
                let fetch = try FetchScenarios.fetchSamples(of: dataSet, cacheName: nil, runs: options.runs)
                figures.append(Figure("1. initial fetch (batch 20, sectioned), PostgreSQL", rows: rows, samples: fetch,
                                      baseline: ("raw ordered IDs + grouped count (postgres-nio)", floor), target: "≤ 1.5× baseline"))
            }
            let changes = ChangeScenarios(dataSet: dataSet, runs: options.runs, bulkRuns: bulkRuns)
            let baseline = PostgresRefetchAndDiff(dataSet: dataSet)
            for (number, changed) in [(3, 1), (4, 1000)] where changed <= rows / 10 && scenarios.contains(number) {
                progress("\(rows) rows: \(changed) changed object(s), ours")
                let ours = try changes.run(changed: changed)
                let baselineRuns = changed == 1 ? min(options.runs, rows >= 1_000_000 ? 5 : 10) : 2
                progress("\(rows) rows: \(changed) changed object(s), refetch-and-diff")
                let refetched = try baseline.run(changed: changed, runs: baselineRuns)
                let what = changed == 1 ? "one object's sort key" : "\(changed) objects' sort keys"
                let name = "refetch-and-diff (NOTIFY, postgres-nio)"
                figures.append(Figure("\(number). \(what) saved → delegate done, same context, PostgreSQL", rows: rows,
                                      samples: ours.local, baseline: (name, refetched)))
                figures.append(Figure("\(number). … saved in a background context → delegate done, PostgreSQL", rows: rows,
                                      samples: ours.merged, baseline: (name, refetched)))
            }
        }
        if scenarios.contains(6) {
            let count = min(100_000, options.rowCounts.max() ?? 100_000)
            progress("inserting \(count) objects, ours and raw")
            let runs = scenarios == [6] ? options.runs : 3
            figures.append(try PostgresInsertScenario(server: server, count: count, runs: runs).run())
        }
        return figures
    }
}
#endif
