import ArgumentParser
@testable import OCDBench
import Testing

/// `ocd-bench`'s command line: the flags the README and CI use, and bad input refused with the
/// argument parser's status 64, before anything is measured.
@Suite struct BenchOptionsTests {
    @Test func theDefaultsMeasureEveryScenarioAtThreeSizes() throws {
        let options = try BenchOptions.parse([])
        #expect(options.rowCounts == [10_000, 100_000, 1_000_000] && options.runs == 20)
        #expect(options.scenarios == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12] && options.measuresTimings && options.fuzzBatches == nil)
    }

    @Test func theReadmesCommandLinesAreRead() throws {
        let timings = try BenchOptions.parse(["--rows", "10k,100k,1M", "--runs", "2", "--scenarios", "1,6",
                                              "--json", "bench.json", "--chart", "chart.svg", "--data", "sets"])
        #expect(timings.rowCounts == [10_000, 100_000, 1_000_000] && timings.runs == 2 && timings.scenarios == [1, 6])
        #expect(timings.jsonPath == "bench.json" && timings.chartPath == "chart.svg" && timings.dataDirectory == "sets")

        let fuzzing = try BenchOptions.parse(["--fuzz-batches", "1M", "--seed", "0x3039"])
        #expect(fuzzing.fuzzBatches == 1_000_000 && fuzzing.fuzzSeed == 12345 && !fuzzing.measuresTimings)
        #expect(try BenchOptions.parse(["--fuzz-batches", "2000", "--rows", "10k"]).measuresTimings)
        let history = try BenchOptions.parse(["--history-cost", "--rows", "100k", "--runs", "50"])
        #expect(history.historyCost && history.rowCountsGiven == [100_000] && history.runs == 50)
        #expect(!(try BenchOptions.parse([]).historyCost))
        let other = try BenchOptions.parse(["--other-process", "--rows", "1M"])
        #expect(other.otherProcess && !other.measuresTimings && other.rowCountsGiven == [1_000_000])
        let crossFuzz = try BenchOptions.parse(["--fuzz-batches", "100k", "--other-process"])
        #expect(crossFuzz.otherProcess && crossFuzz.fuzzBatches == 100_000 && !crossFuzz.measuresTimings)
        #expect(!(try BenchOptions.parse([]).otherProcess))
    }

    @Test(arguments: [
        (["--rows", "lots"], "The value 'lots' is invalid for '--rows <n[,n…]>': 'lots' is not a count (use e.g. 10000, 100k or 1M)"),
        (["--rows", ","], "The value ',' is invalid for '--rows <n[,n…]>': give at least one size"),
        (["--runs", "0"], "The value '0' is invalid for '--runs <n>': '0' is not a count"),
        (["--scenarios", "7"], "The value '7' is invalid for '--scenarios <n[,n…]>': '7' is not a list of scenario numbers 1 to 6 and 8 to 12 (7 is --other-process)"),
        (["--fuzz-batches", "2000", "--seed", "soon"], "'soon' is not a seed (use e.g. 12345 or 0x3039)"),
        (["--seed", "1"], "--seed is for --fuzz-batches"),
        (["--history-cost", "--fuzz-batches", "10"], "--history-cost and --fuzz-batches are separate runs"),
        (["--history-cost", "--other-process"], "--history-cost and --other-process are separate runs"),
        (["--verbose"], "Unknown option '--verbose'"),
        (["--ingest", "--other-process"], "--ingest and --other-process are separate runs"),
        (["--controllers", "10"], "--controllers is for --ingest, or --store with --other-process"),
    ] + postgresRefusals)
    func badInputIsRefusedWithStatus64(arguments: [String], message: String) {
        do {
            let options = try BenchOptions.parse(arguments)
            Issue.record("\(arguments) was read as \(options)")
        } catch {
            #expect(BenchOptions.message(for: error).contains(message), "\(BenchOptions.message(for: error))")
            #expect(BenchOptions.exitCode(for: error).rawValue == 64)
        }
    }

    /// `--ingest` runs on a SQLite data set too (Docs/Benchmarks.md's command lines).
    @Test func ingestCommandLinesAreRead() throws {
        let ingest = try BenchOptions.parse(["--ingest", "--writers", "1", "--rate", "100k", "--batch", "10", "--seconds", "5",
                                             "--controllers", "1"])
        #expect(ingest.ingest && ingest.writers == 1 && ingest.rate == 100_000 && ingest.batch == 10 && ingest.seconds == 5)
        #expect(ingest.controllerCounts == [1] && ingest.postgresServer == nil && !ingest.otherProcess)
        let defaults = try BenchOptions.parse(["--ingest"])
        #expect(defaults.writers == 3 && defaults.rate == 20_000 && defaults.batch == 500 && defaults.seconds == 20)
        #expect(defaults.controllerCounts == [1_000])
    }

    /// `--store` without the trait says how to build with it; with the trait, what it refuses.
    static var postgresRefusals: [([String], String)] {
        #if Postgres
        [
            (["--store", "stores/teams.sqlite"], "--store takes a postgres:// URL (SQLite data sets go in --data)"),
            (["--store", "postgres://me@db/bench?schema=x"], "leave out schema=; ocd-bench keeps each data set in a schema of its own"),
            (["--store", "postgres://me@db/bench", "--scenarios", "1,2"], "--store measures scenarios 1, 3, 4 and 6"),
            (["--store", "postgres://me@db/bench", "--controllers", "10"], "--controllers is for --ingest, or --store with --other-process"),
        ]
        #else
        [(["--store", "postgres://me@db/bench"], "--store postgres://… needs the Postgres trait: build ocd-bench with `swift build --package-path Benchmarks -c release --traits Postgres`")]
        #endif
    }

    #if Postgres
    @Test func postgresCommandLinesAreRead() throws {
        let timings = try BenchOptions.parse(["--store", "postgres://me@db/bench", "--rows", "100k,1M", "--scenarios", "1,3,4,6"])
        #expect(timings.postgresServer == "postgres://me@db/bench" && timings.scenarios == [1, 3, 4, 6])
        let delivery = try BenchOptions.parse(["--store", "postgres://me@db/bench", "--other-process", "--rows", "100k"])
        #expect(delivery.otherProcess && delivery.controllerCounts == [1_000, 10_000])
        let ingest = try BenchOptions.parse(["--store", "postgres://me@db/bench", "--ingest", "--writers", "4", "--rate", "20k"])
        #expect(ingest.ingest && ingest.writers == 4 && ingest.rate == 20_000 && ingest.controllerCounts == [1_000])
    }
    #endif
}
