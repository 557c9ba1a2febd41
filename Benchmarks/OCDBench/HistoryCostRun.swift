import FetchedResultsChecking
import Foundation
import OpenCoreData

/// `--history-cost`: what recording persistent history costs, as ratios measured in one run.
/// Scenario 3 (one object's sort key saved → delegate done, same context) runs on two copies of
/// the data set, one opened with history on and one with it off, and scenario 6 (100,000 new
/// objects in one save) on new stores of each kind; the runs alternate between on and off, each
/// kind going first every other time, so that a busy moment of the machine falls on both.
struct HistoryCostRun {
    let options: BenchOptions
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-history-\(ProcessInfo.processInfo.processIdentifier)")

    private var dataDirectory: URL { options.dataDirectory.map { URL(fileURLWithPath: $0) } ?? temporary }

    func run() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let insertDirectory = temporary.appendingPathComponent("insert")
        try FileManager.default.createDirectory(at: insertDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let rows = options.rowCountsGiven?.max() ?? 1_000_000
        let dataSet = DataSet(rows: rows, directory: dataDirectory)
        try dataSet.build()
        progress("\(rows) rows: one object's sort key saved, history on and off")
        var figures = try singleChange(dataSet)
        let count = min(100_000, rows)
        progress("inserting \(count) objects, history on and off")
        figures += try inserts(count: count, directory: insertDirectory)
        print(Report.table(figures))
        if let path = options.jsonPath {
            try Report.writeJSON(figures, to: path)
            progress("figures written to \(path)")
        }
    }

    /// One side of scenario 3: a container on its own copy of the data set, with a controller on
    /// a context whose saves it times.
    private struct Side {
        let container: PersistentContainer
        let context: ManagedObjectContext
        let controller: FetchedResultsController<Team>
        let probe = DeliveryProbe()
        let ids: [ManagedObjectID]
        var samples = Samples()

        init(_ dataSet: DataSet, copy: URL, history: Bool) throws {
            try dataSet.copy(to: copy)
            container = try dataSet.openContainer(at: copy, history: history)
            let context = container.newBackgroundContext()
            let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                      sectionNameKeyPath: "zone", cacheName: nil)
            let probe = probe
            ids = try context.performAndWait { () throws -> [ManagedObjectID] in
                controller.delegate = probe
                try controller.performFetch()
                let request = FetchRequest<ManagedObjectID>(entityName: "Team")
                request.resultType = .managedObjectIDResultType
                return try context.fetch(request)
            }
            self.context = context
            self.controller = controller
        }

        /// One timed save, after an untimed one on the first run.
        mutating func measure(using generator: inout SplitMix64, record: Bool) throws {
            let chosen = ChangeScenarios.choose(1, from: ids, using: &generator)
            let start = try ChangeScenarios.changeAndSave(chosen, in: context, using: &generator)
            guard probe.waitForDelivery() else { throw BenchError(description: "no change batch after a save") }
            if record { samples.add(milliseconds(probe.deliveredAt - start)) }
        }
    }

    private func singleChange(_ dataSet: DataSet) throws -> [Figure] {
        // Copies, so that the two sides change their own rows and the data set stays as built.
        var on = try Side(dataSet, copy: temporary.appendingPathComponent("history-on.sqlite"), history: true)
        var off = try Side(dataSet, copy: temporary.appendingPathComponent("history-off.sqlite"), history: false)
        var generator = SplitMix64(seed: 3)
        // Scenario 3 is a fraction of a millisecond: many runs, so that medians settle.
        let runs = max(options.runs, 200)
        for run in 0...runs {
            if run.isMultiple(of: 2) {
                try on.measure(using: &generator, record: run > 0)
                try off.measure(using: &generator, record: run > 0)
            } else {
                try off.measure(using: &generator, record: true)
                try on.measure(using: &generator, record: true)
            }
        }
        for side in [on, off] {
            try side.context.performAndWait { try FetchScenarios.check(side.controller, rows: dataSet.rows) }
        }
        return [Figure("3. one object's sort key saved → delegate done, history on", rows: dataSet.rows, samples: on.samples,
                       baseline: ("history off", off.samples), target: "≤ 1.15× history off")]
    }

    private func inserts(count: Int, directory: URL) throws -> [Figure] {
        let scenario = InsertScenario(directory: directory, count: count, runs: 0)
        var on = Samples(), off = Samples()
        let runs = max(5, options.runs / 2)
        for run in 0..<runs {
            if run.isMultiple(of: 2) {
                on.add(try scenario.insertThroughContext(history: true))
                off.add(try scenario.insertThroughContext(history: false))
            } else {
                off.add(try scenario.insertThroughContext(history: false))
                on.add(try scenario.insertThroughContext(history: true))
            }
        }
        return [Figure("6. insert \(count) objects in one save, history on", rows: count, samples: on,
                       baseline: ("history off", off), target: "≤ 1.3× history off")]
    }
}
