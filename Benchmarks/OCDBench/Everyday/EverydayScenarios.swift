import Foundation
import GRDB

/// Scenario 11, everyday object work: reads, writes and memory on a store of players in clubs,
/// each beside GRDB's record API in the same run (`--scenarios 11`).
///
/// For profiling, `OCD_BENCH_EVERYDAY=r`, `m` or `w` (or a combination, e.g. `rw`) runs only the
/// reads, the memory figure or the writes; adding `h` (e.g. `wh`) opens the writes' store with
/// persistent history off, to count what recording it costs a save.
struct EverydayScenarios {
    let rows: Int
    let runs: Int
    let directory: URL
    let scratch: URL

    func run() throws -> [Figure] {
        let dataSet = EverydayDataSet(rows: rows, directory: directory)
        try dataSet.build()
        let parts = ProcessInfo.processInfo.environment["OCD_BENCH_EVERYDAY"] ?? "rmw"
        let reads = try EverydayReads(dataSet: dataSet, runs: runs)
        var figures: [Figure] = []
        if parts.contains("r") { figures += try reads.run() }
        if parts.contains("m") {
            progress("\(rows) players: memory")
            figures.append(try EverydayMemory(dataSet: dataSet, container: reads.container, pool: reads.pool).run())
        }
        if parts.contains("w") {
            progress("\(rows) players: changing, inserting and deleting one object a save")
            figures += try EverydayWrites(dataSet: dataSet, runs: runs, scratch: scratch,
                                      history: !parts.contains("h")).run()
        }
        // In the order of their letters: reads, then memory, then writes.
        return figures.sorted { $0.scenario < $1.scenario }
    }
}
