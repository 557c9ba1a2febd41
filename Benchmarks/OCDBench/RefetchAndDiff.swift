import FetchedResultsChecking
import Foundation
import GRDB

/// The baseline of scenarios 3 and 4, as GRDB users keep a list up to date today: a
/// `ValueObservation` of the ordered rows with their sort keys, whose every new value is diffed
/// against the previous one with `difference(from:)`.
struct RefetchAndDiff {
    let dataSet: DataSet

    struct KeyedRow: Hashable {
        var key: Int64
        var zone: String
        var wins: Int32
        var name: String
    }

    /// The time from the start of a write transaction changing `changed` rows to the difference
    /// being computed, over `runs` runs.
    func run(changed: Int, runs: Int) throws -> Samples {
        let pool = try DatabasePool(path: dataSet.url.path, configuration: DataSet.rawConfiguration)
        let observed = Observed()
        let observation = ValueObservation.tracking { db in
            try Array(Row.fetchCursor(db, sql: Team.orderedRowsSQL).map { row in
                KeyedRow(key: row[0], zone: row[1], wins: row[2], name: row[3])
            })
        }
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "ocd-bench.observation")),
            onError: { error in progress("observation failed: \(error)") },
            onChange: { rows in observed.receive(rows) })
        defer { cancellable.cancel() }
        guard observed.waitForValue() else { throw BenchError(description: "the observation never started") }
        let keys = try pool.read { db in try Int64.fetchAll(db, sql: Team.orderedKeysSQL) }
        var generator = SplitMix64(seed: UInt64(changed) &* 31)
        var samples = Samples()
        for _ in 0..<runs {
            var chosen = Set<Int64>()
            while chosen.count < changed { chosen.insert(keys[Int(generator.next() % UInt64(keys.count))]) }
            let start = now()
            try pool.write { db in
                for key in chosen {
                    try db.execute(sql: #"UPDATE "Team" SET "wins" = ("wins" + ?) % 1000 WHERE "_pk" = ?"#,
                                   arguments: [1 + generator.next() % 999, key])
                }
            }
            guard observed.waitForValue() else { throw BenchError(description: "the observation saw no change") }
            samples.add(milliseconds(observed.diffedAt - start))
        }
        return samples
    }

    /// The observation's side: diffs each value against the previous one.
    private final class Observed: @unchecked Sendable {
        // Touched on the observation's serial queue, read after `signal`.
        private var previous: [KeyedRow]?
        private(set) var diffedAt: UInt64 = 0
        private let changed = DispatchSemaphore(value: 0)

        func receive(_ rows: [KeyedRow]) {
            defer { previous = rows }
            guard let previous else {
                changed.signal()
                return
            }
            // GRDB on Linux may deliver the first value twice: only a real change counts.
            guard !rows.difference(from: previous).isEmpty else { return }
            diffedAt = now()
            changed.signal()
        }

        func waitForValue() -> Bool { changed.wait(timeout: .now() + 600) == .success }
    }
}
