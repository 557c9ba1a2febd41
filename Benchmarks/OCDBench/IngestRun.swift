import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `--ingest` (on a SQLite data set, or with `--store` on PostgreSQL): `--writers` other
/// processes commit batches of `--batch`
/// changed teams at `--rate` row changes a second in all, for `--seconds`, while this process
/// keeps the scoreboard and `--controllers` more live controllers. Each save's delay runs from
/// its commit (the writer's `save()` returning) to the scoreboard's delegate done with the first
/// batch that shows it; the run prints the rate committed, the delays and how long this
/// process took to catch up after the last commit.
struct IngestRun {
    let options: BenchOptions
    /// The PostgreSQL server of `--store`; nil for a SQLite data set (in `--data` or a
    /// temporary directory).
    let server: String?

    func run() throws {
        let rows = options.rowCountsGiven?.max() ?? 100_000
        guard options.batch <= rows / options.writers else {
            throw BenchError(description: "--batch \(options.batch) is more than a writer's share of \(rows) teams")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-ingest-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (container, location) = try openStore(rows: rows, scratch: directory)
        let live = try ManyControllers(count: options.controllerCounts[0], container: container)
        let context = live.contexts[0]
        let probe = StampProbe()
        let scoreboard = try live.scoreboard(delegate: probe)
        let writers = try (0..<options.writers).map { _ in try ChildProcess(arguments: ["--ingest-writer", location]) }
        progress("\(options.writers) writers: \(options.rate) row changes/s in batches of \(options.batch) for \(options.seconds) s, "
                 + "\(options.controllerCounts[0]) controllers live here")
        let startAt = now() + 1_000_000_000
        let cpuBefore = ProcessorTime.seconds()
        for (number, writer) in writers.enumerated() {
            try writer.send("run \(number) \(options.writers) \(options.seconds) \(Double(options.rate) / Double(options.writers)) "
                            + "\(options.batch) \(startAt) \(directory.appendingPathComponent("\(number).log").path)")
        }
        for writer in writers {
            let answer = try writer.answer()
            guard answer.hasPrefix("done ") else { throw BenchError(description: "an ingest writer answered '\(answer)'") }
        }
        let commits = try (0..<options.writers).flatMap { try Self.readLog(directory.appendingPathComponent("\($0).log")) }
        let caughtUp = probe.wait(for: Set(commits.map(\.stamp)), until: .now() + .seconds(options.seconds))
        let cpu = ProcessorTime.seconds() - cpuBefore
        let seen = probe.firstSeen()
        print(IngestReport(options: options, rows: rows, commits: commits, seen: seen, caughtUp: caughtUp, cpuSeconds: cpu).table())
        // A process that fell behind would take long to drain its contexts' queues: the check
        // of the scoreboard against a fresh fetch needs it caught up.
        if caughtUp {
            live.waitUntilIdle()
            try context.performAndWait { try FetchScenarios.check(scoreboard, rows: rows) }
            try OrderCheck.verify(scoreboard, in: context)
        } else {
            print("Not caught up \(options.seconds) s after the last commit: the scoreboard was not checked against a fresh fetch.")
            fflush(nil)
            exit(0)
        }
        withExtendedLifetime((live, writers)) {}
    }

    /// The data set's store, built unless it exists, and where the writers find it.
    private func openStore(rows: Int, scratch: URL) throws -> (PersistentContainer, String) {
        #if Postgres
        if let server {
            let dataSet = PostgresDataSet(rows: rows, server: server)
            try dataSet.build()
            return (try dataSet.makeContainer(), dataSet.storeURL)
        }
        #endif
        let dataSet = DataSet(rows: rows, directory: options.dataDirectory.map { URL(fileURLWithPath: $0) } ?? scratch)
        try dataSet.build()
        return (try dataSet.openContainer(), dataSet.url.path)
    }

    struct Commit {
        var stamp: Int
        var begin: UInt64
        var end: UInt64
    }

    private static func readLog(_ url: URL) throws -> [Commit] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let stamp = Int(fields[0]), let begin = UInt64(fields[1]), let end = UInt64(fields[2]) else {
                return nil
            }
            return Commit(stamp: stamp, begin: begin, end: end)
        }
    }
}

/// The scoreboard's delegate in `--ingest`: when each save's stamp (the changed teams'
/// creation date) was first delivered.
final class StampProbe: FetchedResultsControllerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int: UInt64] = [:]
    private var batch = Set<Int>()
    private let delivered = DispatchSemaphore(value: 0)

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let team = anObject as? Team else { return }
        let created = team.created.timeIntervalSince1970
        // Stamps are small whole numbers; the data set's creation dates are not.
        if created < 100_000_000 { batch.insert(Int(created)) }
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        let time = now()
        lock.withLock {
            for stamp in batch where seen[stamp] == nil { seen[stamp] = time }
        }
        batch.removeAll()
        delivered.signal()
    }

    /// Waits until every stamp of `stamps` has been delivered; false if the deadline came first.
    func wait(for stamps: Set<Int>, until deadline: DispatchTime) -> Bool {
        while true {
            if lock.withLock({ stamps.allSatisfy { seen[$0] != nil } }) { return true }
            if delivered.wait(timeout: deadline) == .timedOut { return false }
        }
    }

    func firstSeen() -> [Int: UInt64] { lock.withLock { seen } }
}

/// This process's processor time (user and system), in seconds.
enum ProcessorTime {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
