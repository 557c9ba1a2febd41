import FetchedResultsChecking
import Foundation

/// What `--fuzz-batches` prints on standard output: a table of what was checked, then the first
/// mismatch and how to replay it.
extension FuzzTally.Result {
    var passed: Bool { mismatches.isEmpty && errors.isEmpty }

    func table(seed: UInt64, runs: Int, configurations: Int) -> String {
        let report = self.report
        let rate = elapsedSeconds > 0 ? Double(report.batches) / elapsedSeconds : 0
        let rows: [(String, String)] = [
            ("batches checked", "\(report.batches) (\(report.mergedBatches) merged from background saves, \(report.savedBatches) saved in the controller's context)"),
            ("from another process", "\(report.otherProcessBatches) saves and batch requests, killed \(report.otherProcessKills) times while saving"),
            ("runs", "\(runs), \(configurations) configurations"),
            ("inserts", "\(report.objectChanges[.insert, default: 0])"),
            ("deletes", "\(report.objectChanges[.delete, default: 0])"),
            ("moves", "\(report.objectChanges[.move, default: 0]) (\(report.movesInPlace) in place)"),
            ("updates", "\(report.objectChanges[.update, default: 0])"),
            ("section inserts", "\(report.sectionChanges[.insert, default: 0])"),
            ("section deletes", "\(report.sectionChanges[.delete, default: 0])"),
            ("mismatches", "\(mismatches.count)"),
            ("store errors", "\(errors.count)"),
            ("seed", FuzzSeed.text(seed)),
            ("elapsed", String(format: "%.1f s (%.0f batches/s)", elapsedSeconds, rate)),
        ]
        return (["| fuzzer | |", "|---|---|"] + rows.map { "| \($0.0) | \($0.1) |" }).joined(separator: "\n")
    }

    /// The first mismatch and the commands that replay it, or the first store error; nil when
    /// every run passed. `configurations` is the campaign's number of set-ups; `otherProcess`
    /// whether its background batches came from another process.
    func failureReport(configurations: Int, otherProcess: Bool) -> String? {
        if let mismatch = firstMismatch {
            // A plan of (configurations × n) batches, n ≤ a run's length, is round 0 of every configuration.
            let batches = mismatch.batch * configurations
            let flag = otherProcess ? " --other-process" : ""
            let timing = otherProcess ? "\n(the other process's writes follow the seed, their timing does not: a replay may pass)" : ""
            return """
                \(mismatches.count) run(s) met a mismatch; the first in the plan:
                \(mismatch)
                replay: \(mismatch.testReplayCommand(otherProcess: otherProcess))
                    or: swift run --package-path Benchmarks ocd-bench --fuzz-batches \(batches)\(flag) --seed \(FuzzSeed.text(mismatch.baseSeed))\(timing)
                """
        }
        return firstError.map { "\(errors.count) run(s) stopped on a store error; the first: \($0)" }
    }
}
