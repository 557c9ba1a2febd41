#if Postgres
import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `--store postgres://… --other-process`: a one-team save in another process (a
/// `DeliveryWriter` on the same PostgreSQL store) reaching this process, which keeps the
/// scoreboard and `--controllers` more live controllers. Two times per save, from the writer's
/// call to `save()`: the scoreboard's delegate done, and the last batch of every controller the
/// change concerns delivered (all contexts idle). Only PostgreSQL's notification tells this
/// process of the commit. `--runs` × 10 saves (200 by default), fewer above 1,000
/// controllers (`--runs` × 10,000 / controllers, at least 20): each save then takes seconds.
struct PostgresDeliveryRun {
    let options: BenchOptions
    let server: String

    func run() throws {
        let rows = options.rowCountsGiven?.max() ?? 100_000
        let dataSet = PostgresDataSet(rows: rows, server: server)
        try dataSet.build()
        var figures: [Figure] = []
        var percentiles: [String] = ["| controllers | scoreboard p50 | p99 | all controllers p50 | p99 | max |", "|---:|---:|---:|---:|---:|---:|"]
        for count in options.controllerCounts {
            let (scoreboard, all) = try measure(dataSet: dataSet, controllers: count)
            let target = "p50 ≤ 10 ms, p99 ≤ 50 ms"
            figures.append(Figure("7. one team saved by another process → scoreboard's delegate done, \(count) more controllers, PostgreSQL",
                                  rows: rows, samples: scoreboard, target: target))
            figures.append(Figure("7. … → every concerned controller's delegate done", rows: rows, samples: all, target: target))
            percentiles.append(String(format: "| %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms |", count,
                                      scoreboard.percentile(0.5), scoreboard.percentile(0.99),
                                      all.percentile(0.5), all.percentile(0.99), all.max))
        }
        print(Report.table(figures))
        print(percentiles.joined(separator: "\n"))
        if let path = options.jsonPath {
            try Report.writeJSON(figures, to: path)
            progress("figures written to \(path)")
        }
    }

    private func measure(dataSet: PostgresDataSet, controllers count: Int) throws -> (Samples, Samples) {
        let container = try dataSet.makeContainer()
        let live = try ManyControllers(count: count, container: container)
        let context = live.contexts[0]
        let probe = DeliveryProbe()
        let scoreboard = try live.scoreboard(delegate: probe)
        progress("\(dataSet.rows) rows, \(count) more controllers: one team saved by another process")
        let writer = try ChildProcess(arguments: ["--delivery-writer", dataSet.storeURL])
        var generator = SplitMix64(seed: 7)
        var first = Samples(), all = Samples()
        // 200 saves with 1,000 controllers by default; fewer with more, since each then takes
        // seconds to reach every controller (one store read per controller, Docs/Scaling.md).
        let runs = max(20, min(options.runs * 10, options.runs * 10_000 / max(count, 1)))
        for run in 0...runs {
            _ = live.last.take()
            let answer = try writer.ask("change \(generator.next())")
            guard answer.hasPrefix("committed "), let committedAt = UInt64(answer.dropFirst("committed ".count)) else {
                throw BenchError(description: "the other process answered '\(answer)'")
            }
            guard probe.waitForDelivery() else { throw BenchError(description: "no change batch after the other process's save") }
            live.waitUntilIdle()
            let last = live.last.take()
            if run > 0 {
                first.add(milliseconds(probe.deliveredAt - committedAt))
                all.add(milliseconds(max(probe.deliveredAt, last.at) - committedAt))
            }
        }
        try context.performAndWait { try FetchScenarios.check(scoreboard, rows: dataSet.rows) }
        try OrderCheck.verify(scoreboard, in: context)
        withExtendedLifetime(live) {}
        return (first, all)
    }
}
#endif
