import FetchedResultsChecking
import Foundation
import OpenCoreData

/// Scenario 8: a `BatchInsertRequest` of `count` new teams into an empty store with persistent
/// history on, against scenario 6's baseline, the same rows inserted into an empty table of the
/// same shape in one GRDB transaction. The request's dictionary handler makes each row when it is
/// asked for, as the baseline makes its values in its loop: both times include making the rows.
struct BatchInsertScenario {
    let directory: URL
    let count: Int
    let runs: Int

    func run() throws -> Figure {
        let raw = InsertScenario(directory: directory, count: count, runs: 0)
        var ours = Samples(), baseline = Samples()
        // Alternately first, so that a busy moment of the machine falls on both.
        for run in 0..<runs {
            if run.isMultiple(of: 2) {
                ours.add(try insertThroughBatchRequest())
                baseline.add(try raw.insertThroughGRDB())
            } else {
                baseline.add(try raw.insertThroughGRDB())
                ours.add(try insertThroughBatchRequest())
            }
        }
        return Figure("8. BatchInsertRequest of \(count) rows, history on", rows: count, samples: ours,
                      baseline: ("one GRDB transaction (6.)", baseline), target: "≤ 1.3× baseline")
    }

    /// One batch insert of `count` new teams into a new store with history on; checks that they
    /// were all written.
    func insertThroughBatchRequest() throws -> Double {
        let dataSet = DataSet(rows: count, directory: directory)
        DataSet.removeStore(at: dataSet.url)
        let container = try dataSet.openContainer(history: true)
        let context = container.newBackgroundContext()
        let count = count
        let elapsed = try context.performAndWait { () throws -> UInt64 in
            var generator = SplitMix64(seed: 6)
            var number = 0
            let start = now()
            let request = BatchInsertRequest(entityName: "Team") { row in
                guard number < count else { return true }
                let zone = Team.zones[Int(generator.next() % UInt64(Team.zones.count))]
                row = ["name": "Team " + String(number), "zone": zone, "wins": Int32(generator.next() % 1000),
                       "created": Date(timeIntervalSince1970: 1_700_000_000 + Double(number))]
                number += 1
                return false
            }
            request.resultType = .count
            let result = try context.execute(request) as? BatchInsertResult
            let elapsed = now() - start
            guard result?.result as? Int == count else {
                throw BenchError(description: "the batch insert reports \(String(describing: result?.result)) rows written, not \(count)")
            }
            return elapsed
        }
        let stored = try context.performAndWait { try context.count(for: Team.fetchRequest()) }
        guard stored == count else { throw BenchError(description: "the batch insert left \(stored) of \(count) rows") }
        return milliseconds(elapsed)
    }
}
