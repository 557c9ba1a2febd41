import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `--other-process`: a commit of another process reaching a live controller. Another process
/// (this program as a `DeliveryWriter`) saves one object's new sort key; the time runs from its
/// call to `save()` to the return of the delegate's last callback here, where nothing but the
/// store's files told this process of the commit. Alternated, in the same run and on the same
/// store and controller, with scenario 3's merged save: a background context of this process.
struct OtherProcessRun {
    let options: BenchOptions
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-other-\(ProcessInfo.processInfo.processIdentifier)")

    private var dataDirectory: URL { options.dataDirectory.map { URL(fileURLWithPath: $0) } ?? temporary }

    func run() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let rows = options.rowCountsGiven?.max() ?? 1_000_000
        let dataSet = DataSet(rows: rows, directory: dataDirectory)
        try dataSet.build()
        // A copy, so that the data set stays as built; with its log, which holds the rows of a
        // data set just built while its connections are still open.
        let copy = temporary.appendingPathComponent("other-process.sqlite")
        try dataSet.copy(to: copy)
        let container = try dataSet.openContainer(at: copy)
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let background = container.newBackgroundContext()
        let probe = DeliveryProbe()
        let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                  sectionNameKeyPath: "zone", cacheName: nil)
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            controller.delegate = probe
            try controller.performFetch()
            let request = FetchRequest<ManagedObjectID>(entityName: "Team")
            request.resultType = .managedObjectIDResultType
            return try context.fetch(request)
        }
        progress("\(rows) rows: one object's sort key saved by another process, and by a background context of this one")
        let writer = try ChildProcess(arguments: ["--delivery-writer", copy.path])
        var merged = Samples(), other = Samples()
        var generator = SplitMix64(seed: 7)
        let runs = max(options.runs, 200)
        for run in 0...runs {
            let chosen = ChangeScenarios.choose(1, from: ids, using: &generator)
            let start = try ChangeScenarios.changeAndSave(chosen, in: background, using: &generator)
            guard probe.waitForDelivery() else { throw BenchError(description: "no change batch after a merged save") }
            if run > 0 { merged.add(milliseconds(probe.deliveredAt - start)) }
            background.performAndWait { background.reset() }

            let answer = try writer.ask("change \(generator.next())")
            guard answer.hasPrefix("committed "), let committedAt = UInt64(answer.dropFirst("committed ".count)) else {
                throw BenchError(description: "the other process answered '\(answer)'")
            }
            guard probe.waitForDelivery() else { throw BenchError(description: "no change batch after the other process's save") }
            if run > 0 { other.add(milliseconds(probe.deliveredAt - committedAt)) }
        }
        try context.performAndWait { try FetchScenarios.check(controller, rows: dataSet.rows) }
        try OrderCheck.verify(controller, in: context)
        let figures = [
            Figure("3. one object's sort key saved in a background context → delegate done (merged)", rows: rows, samples: merged),
            Figure("7. one object's sort key saved by another process → delegate done", rows: rows, samples: other,
                   baseline: ("3, merged", merged), target: "≤ 3× scenario 3 merged; p50 ≤ 2 ms, p99 ≤ 10 ms"),
        ]
        print(Report.table(figures))
        print(String(format: "| percentiles | p50 | p99 |\n|---|---:|---:|\n| 3, merged | %.3f ms | %.3f ms |\n| 7, another process | %.3f ms | %.3f ms |",
                     merged.percentile(0.5), merged.percentile(0.99), other.percentile(0.5), other.percentile(0.99)))
        if let path = options.jsonPath {
            try Report.writeJSON(figures, to: path)
            progress("figures written to \(path)")
        }
    }
}
