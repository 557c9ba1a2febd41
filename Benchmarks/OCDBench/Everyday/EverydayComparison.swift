import Foundation

/// How scenario 11 times one piece of work beside its GRDB baseline: the two alternate, run by
/// run, so that a noisy moment of the machine hits both; one untimed run of each comes first
/// (statement caches, file pages).
struct EverydayComparison {
    let rows: Int
    let runs: Int

    /// A figure from `runs` timed runs of each; each closure returns the milliseconds of one run.
    func figure(_ scenario: String, target: String, baseline: String = "GRDB records (init(row:), same SQL)",
                ours: () throws -> Double, grdb: () throws -> Double) throws -> Figure {
        var oursSamples = Samples(), grdbSamples = Samples()
        for run in 0...runs {
            let (mine, theirs) = (try ours(), try grdb())
            if run > 0 {
                oursSamples.add(mine)
                grdbSamples.add(theirs)
            }
        }
        return Figure(scenario, rows: rows, samples: oursSamples, baseline: (baseline, grdbSamples),
                      target: target)
    }

    /// The milliseconds `work` takes, per call, over `repetitions` calls: for work that takes
    /// well under a millisecond, so that one run is long enough to time.
    static func perCall(_ repetitions: Int, _ work: (Int) throws -> Void) rethrows -> Double {
        let start = now()
        for repetition in 0..<repetitions { try work(repetition) }
        return milliseconds(now() - start) / Double(repetitions)
    }

    /// Throws unless a scenario's two sides agree on what they read.
    static func check<T: Equatable>(_ ours: T, _ grdb: T, _ what: String) throws {
        guard ours == grdb else { throw BenchError(description: "\(what): the library read \(ours), GRDB \(grdb)") }
    }
}

/// What a scenario reads of a player, summed, so that the reads cannot be skipped and both sides
/// can be checked to have read the same.
func playerChecksum(name: String, position: String, number: Int32, rating: Double, born: Date) -> Int {
    name.utf8.count &+ position.utf8.count &+ Int(number) &+ Int(rating * 100) &+ Int(born.timeIntervalSince1970) % 1000
}
