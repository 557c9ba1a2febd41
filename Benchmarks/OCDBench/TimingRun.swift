import Foundation
import OpenCoreData

/// The timing scenarios: each data set built (or reused from `--data`), the scenarios asked for
/// run on it next to their baselines, then the table printed and the JSON and chart written.
struct TimingRun {
    let options: BenchOptions
    /// Scratch files of this run, removed at its end.
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-\(ProcessInfo.processInfo.processIdentifier)")

    private var dataDirectory: URL { options.dataDirectory.map { URL(fileURLWithPath: $0) } ?? temporary }
    private var insertDirectory: URL { temporary.appendingPathComponent("insert") }

    /// Measures, prints the table and writes the files asked for.
    func run() throws {
        var notes: [String] = []
        try printFigures(try measure(notes: &notes))
        // Scenarios that could not be measured say why, under the table.
        for note in notes { print("\nnot measured: " + note) }
        try? FileManager.default.removeItem(at: temporary)
    }

    private func measure(notes: inout [String]) throws -> [Figure] {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: insertDirectory, withIntermediateDirectories: true)
        AnyFetchedResultsController.cacheDirectory = temporary.appendingPathComponent("caches")
        var figures: [Figure] = []
        let bulkRuns = max(3, options.runs / 4)
        for rows in options.rowCounts.sorted() where !options.scenarios.isDisjoint(with: [1, 2, 3, 4, 5, 9, 10]) {
            let dataSet = DataSet(rows: rows, directory: dataDirectory)
            try dataSet.build()
            if !options.scenarios.isDisjoint(with: [1, 2, 5]) {
                progress("\(rows) rows: initial fetch, relaunch, memory")
                figures += try FetchScenarios(dataSet: dataSet, runs: options.runs).run()
            }
            let changes = ChangeScenarios(dataSet: dataSet, runs: options.runs, bulkRuns: bulkRuns)
            let baseline = RefetchAndDiff(dataSet: dataSet)
            for (number, changed) in [(3, 1), (4, 1000)] where changed <= rows / 10 && options.scenarios.contains(number) {
                progress("\(rows) rows: \(changed) changed object(s), ours")
                let ours = try changes.run(changed: changed)
                // Refetching takes about a second a run at 1M rows, and diffing 1,000 moves longer.
                let baselineRuns = changed == 1 ? min(options.runs, rows >= 1_000_000 ? 5 : 10) : 2
                progress("\(rows) rows: \(changed) changed object(s), refetch-and-diff")
                let refetched = try baseline.run(changed: changed, runs: baselineRuns)
                let target = number == 3 ? "≤ 1 ms and ≤ 1/300 of baseline" : "≤ 30 ms"
                let what = changed == 1 ? "one object's sort key" : "\(changed) objects' sort keys"
                figures.append(Figure("\(number). \(what) saved → delegate done, same context", rows: rows, samples: ours.local,
                                      baseline: ("refetch-and-diff (GRDB ValueObservation)", refetched), target: target))
                figures.append(Figure("\(number). … → async sequence element, same context", rows: rows, samples: ours.stream,
                                      baseline: ("refetch-and-diff (GRDB ValueObservation)", refetched)))
                figures.append(Figure("\(number). … saved in a background context → delegate done", rows: rows, samples: ours.merged,
                                      baseline: ("refetch-and-diff (GRDB ValueObservation)", refetched)))
            }
            if options.scenarios.contains(9) {
                progress("\(rows) rows: batch update of \(rows / 20) rows, ours and raw")
                figures.append(try BatchUpdateScenario(dataSet: dataSet, runs: bulkRuns, scratch: temporary).run())
            }
            if options.scenarios.contains(10) {
                progress("\(rows) rows: batch update of \(rows / 20) rows observed by 10 live controllers")
                do {
                    figures += try ObservedBatchUpdateScenario(dataSet: dataSet, runs: max(3, bulkRuns / 2), scratch: temporary).run()
                } catch let error as ObservedBatchUpdateScenario.NotDelivered {
                    progress(error.description)
                    notes.append(error.description)
                }
            }
        }
        if options.scenarios.contains(11) {
            for rows in options.rowCounts.sorted() {
                progress("\(rows) players: everyday object work, ours and GRDB's")
                figures += try EverydayScenarios(rows: rows, runs: options.runs, directory: dataDirectory, scratch: temporary).run()
            }
        }
        if options.scenarios.contains(12) {
            for rows in options.rowCounts.sorted() {
                let dataSet = EverydayDataSet(rows: rows, directory: dataDirectory)
                try dataSet.build()
                figures += try WindowScenario(dataSet: dataSet, runs: options.runs, scratch: temporary).run()
            }
        }
        if options.scenarios.contains(6) {
            let insertCount = min(100_000, options.rowCounts.max() ?? 100_000)
            progress("inserting \(insertCount) objects")
            // Alone (for profiling), it runs --runs times.
            figures.append(try InsertScenario(directory: insertDirectory, count: insertCount, runs: options.scenarios == [6] ? options.runs : 3).run())
        }
        if options.scenarios.contains(8) {
            let insertCount = min(100_000, options.rowCounts.max() ?? 100_000)
            progress("batch insert of \(insertCount) rows, ours and raw")
            // Alone (for profiling), it runs --runs times; runs alternate with the baseline's.
            let runs = options.scenarios == [8] ? options.runs : 4
            figures.append(try BatchInsertScenario(directory: insertDirectory, count: insertCount, runs: runs).run())
        }
        return figures
    }

    private func printFigures(_ figures: [Figure]) throws {
        print(Report.table(figures))
        if let path = options.jsonPath {
            try Report.writeJSON(figures, to: path)
            progress("figures written to \(path)")
        }
        if let path = options.chartPath {
            let single = figures.filter { $0.scenario.hasPrefix("3. one object") }
            let chart = Chart(title: "One object's sort key changed and saved: time until the list can update", series: [
                .init(name: "OpenCoreData", color: "#1f77b4", points: single.map { ($0.rows, $0.median) }),
                .init(name: "refetch-and-diff", color: "#d62728", points: single.compactMap { figure in
                    figure.baselineMedian.map { (figure.rows, $0) }
                }),
            ])
            try chart.svg().write(toFile: path, atomically: true, encoding: .utf8)
            progress("chart written to \(path)")
        }
    }
}
