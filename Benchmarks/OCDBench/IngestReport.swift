import Foundation

/// What `--ingest` prints: the rate the writers committed, and how far behind the reading
/// process's delivery ran.
struct IngestReport {
    let options: BenchOptions
    let rows: Int
    let commits: [IngestRun.Commit]
    let seen: [Int: UInt64]
    let caughtUp: Bool
    let cpuSeconds: Double

    func table() -> String {
        guard let first = commits.map(\.begin).min(), let last = commits.map(\.end).max() else { return "no save was committed" }
        let span = Double(last - first) / 1e9
        let changed = commits.count * options.batch
        var lag = Samples()
        for commit in commits { if let at = seen[commit.stamp] { lag.add(milliseconds(at > commit.end ? at - commit.end : 0)) } }
        var saveTimes = Samples()
        for commit in commits { saveTimes.add(milliseconds(commit.end - commit.begin)) }
        let lastSeen = seen.values.max() ?? last
        let delivered = lag.values.count
        // Delays of the saves delivered; when not caught up, the others' are longer still.
        let drained = caughtUp ? String(format: "%.1f ms", milliseconds(lastSeen > last ? lastSeen - last : 0)) : "not caught up"
        let lines = [
            "| writers | batch | target rate | committed rate | saves | save p50 | save p99 | delivered | delay p50 | delay p99 | delay max | caught up after last commit | this process's CPU |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            String(format: "| %d | %d | %d/s | %.0f/s | %d | %.1f ms | %.1f ms | %d%@ | %.1f ms | %.1f ms | %.1f ms | %@ | %.0f%% |",
                   options.writers, options.batch, options.rate, Double(changed) / span, commits.count,
                   saveTimes.percentile(0.5), saveTimes.percentile(0.99), delivered, caughtUp ? "" : " (NOT all)",
                   lag.percentile(0.5), lag.percentile(0.99), lag.max, drained, 100 * cpuSeconds / max(span, 0.001)),
        ]
        return lines.joined(separator: "\n") + "\n\(rows) rows, \(options.controllerCounts[0]) controllers besides the scoreboard, \(String(format: "%.1f", span)) s of commits."
    }
}
