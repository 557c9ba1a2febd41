import ArgumentParser
import FetchedResultsChecking

/// The command line: which result sizes to measure, how often, and where to write the figures;
/// or how many batches the fuzzer checks.
struct BenchOptions: ParsableArguments {
    /// The result sizes measured unless `--rows` says otherwise.
    static let standardRowCounts = [10_000, 100_000, 1_000_000]
    /// Every scenario, by number.
    static let allScenarios: Set<Int> = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]

    @Option(name: .customLong("rows"),
            help: ArgumentHelp("Result sizes to measure, e.g. 10k,100k,1M (default: 10k,100k,1M).", valueName: "n[,n…]"),
            transform: BenchOptions.counts)
    var rowCountsGiven: [Int]?

    @Option(help: ArgumentHelp("Timed runs per scenario (default: 20); bulk and refetch scenarios use fewer.", valueName: "n"),
            transform: BenchOptions.count)
    var runs = 20

    @Option(name: .customLong("scenarios"),
            help: ArgumentHelp("Which scenarios to run, e.g. 4 or 1,6 (default: all; 1, 2 and 5 run together).",
                               valueName: "n[,n…]"),
            transform: BenchOptions.scenarioNumbers)
    var scenariosGiven: Set<Int>?

    @Option(name: .customLong("json"), help: ArgumentHelp("Write every figure as JSON.", valueName: "path"))
    var jsonPath: String?

    @Option(name: .customLong("chart"),
            help: ArgumentHelp("Write an SVG chart of change delivery against result size.", valueName: "path"))
    var chartPath: String?

    @Option(name: .customLong("data"),
            help: ArgumentHelp("Keep the data sets in this directory and reuse them (default: a temporary directory).",
                               valueName: "dir"))
    var dataDirectory: String?

    @Option(help: ArgumentHelp("""
        Check this many random change batches (e.g. 1M) with the controller's differential fuzzer, spread over \
        its configurations and the cores, and print what was checked; exit status 1 on a mismatch. The timing \
        scenarios are then skipped unless --rows is given too.
        """, valueName: "n"),
            transform: BenchOptions.count)
    var fuzzBatches: Int?

    @Option(name: .customLong("seed"),
            help: ArgumentHelp("""
                The fuzzer's base seed, decimal or 0x hex; the default, \(FuzzSeed.text(FuzzSeed.standard)), is the \
                tests', so --fuzz-batches 6800 checks what `swift test` checks.
                """, valueName: "s"),
            transform: BenchOptions.seed)
    var fuzzSeed: UInt64?

    @Flag(name: .customLong("history-cost"),
          help: ArgumentHelp("""
              Measure what persistent history costs instead of the timing scenarios: scenarios 3 (at the largest \
              --rows size, default 1M) and 6 with history on and off, alternately in one run, and their ratios.
              """))
    var historyCost = false

    @Flag(name: .customLong("other-process"),
          help: ArgumentHelp("""
              Measure a commit of another process reaching a live controller instead of the timing scenarios: \
              another ocd-bench process saves one object's sort key (scenario 7), alternated with scenario 3's \
              merged save, at the largest --rows size (default 1M). With --fuzz-batches instead: the fuzzer's \
              background batches are made by another process, killed now and then in the middle of a save.
              """))
    var otherProcess = false

    @Option(name: .customLong("store"),
            help: ArgumentHelp("""
                Measure on a PostgreSQL server instead of SQLite (built with the Postgres trait only): scenarios 1, 3, 4 \
                and 6, each beside raw postgres-nio; with --other-process, a commit of another process reaching \
                live controllers; with --ingest, other processes committing at --rate. One schema per data set \
                (ocd_bench_ROWS), kept and reused.
                """, valueName: "postgres://…"))
    var postgresServer: String?

    @Option(name: .customLong("controllers"),
            help: ArgumentHelp("With --ingest, or --store and --other-process: how many live controllers this process keeps (default: 1k,10k; --ingest: 1k).",
                               valueName: "n[,n…]"),
            transform: BenchOptions.counts)
    var controllerCountsGiven: [Int]?

    @Flag(name: .customLong("ingest"),
          help: ArgumentHelp("""
              --writers other processes commit batches of --batch changed teams at --rate row changes a second \
              in all, for --seconds, while this process keeps --controllers live controllers (on a SQLite data \
              set, or with --store on PostgreSQL); prints the rate committed and how far behind this process's \
              delivery runs, then checks the scoreboard against a fresh fetch.
              """))
    var ingest = false

    @Option(help: ArgumentHelp("--ingest: writer processes (default: 3).", valueName: "n"), transform: BenchOptions.count)
    var writers = 3

    @Option(help: ArgumentHelp("--ingest: row changes a second, all writers together (default: 20k).", valueName: "n"),
            transform: BenchOptions.count)
    var rate = 20_000

    @Option(help: ArgumentHelp("--ingest: teams changed per save (default: 500).", valueName: "n"), transform: BenchOptions.count)
    var batch = 500

    @Option(help: ArgumentHelp("--ingest: how long the writers write (default: 20).", valueName: "seconds"),
            transform: BenchOptions.count)
    var seconds = 20

    @Option(name: .customLong("ingest-writer"), help: ArgumentHelp(visibility: .private))
    var ingestWriterStore: String?

    @Option(name: .customLong("delivery-writer"), help: ArgumentHelp(visibility: .private))
    var deliveryWriterStore: String?

    @Option(name: .customLong("card-writer"), help: ArgumentHelp(visibility: .private))
    var cardWriterStore: String?

    /// The result sizes to measure.
    var rowCounts: [Int] { rowCountsGiven ?? Self.standardRowCounts }

    /// The scenarios to run, by number; 1, 2 and 5 share their runs and come together.
    var scenarios: Set<Int> { scenariosGiven ?? Self.allScenarios }

    /// The timing scenarios run unless only the fuzzer was asked for.
    var measuresTimings: Bool { !otherProcess && (fuzzBatches == nil || rowCountsGiven != nil) }

    /// The scenarios `--store` measures on PostgreSQL.
    static let postgresScenarios: Set<Int> = [1, 3, 4, 6]

    /// The live controllers of `--ingest`, or of `--store` with `--other-process`.
    var controllerCounts: [Int] { controllerCountsGiven ?? (ingest ? [1_000] : [1_000, 10_000]) }

    func validate() throws {
        if fuzzSeed != nil, fuzzBatches == nil { throw ValidationError("--seed is for --fuzz-batches") }
        if historyCost, fuzzBatches != nil { throw ValidationError("--history-cost and --fuzz-batches are separate runs") }
        if historyCost, otherProcess { throw ValidationError("--history-cost and --other-process are separate runs") }
        try validatePostgres()
    }

    private func validatePostgres() throws {
        if ingest, otherProcess { throw ValidationError("--ingest and --other-process are separate runs") }
        if ingest, fuzzBatches != nil || historyCost { throw ValidationError("--ingest is a run of its own") }
        guard let server = postgresServer else {
            if controllerCountsGiven != nil, !ingest { throw ValidationError("--controllers is for --ingest, or --store with --other-process") }
            return
        }
        #if !Postgres
        let shown = server.hasPrefix("postgres") ? "postgres://…" : server  // never a password
        throw ValidationError(
            "--store \(shown) needs the Postgres trait: build ocd-bench with `swift build --package-path Benchmarks -c release --traits Postgres`")
        #else
        let lower = server.lowercased()
        guard lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") else {
            throw ValidationError("--store takes a postgres:// URL (SQLite data sets go in --data)")
        }
        if lower.contains("schema=") {
            throw ValidationError("--store: leave out schema=; ocd-bench keeps each data set in a schema of its own")
        }
        if fuzzBatches != nil || historyCost { throw ValidationError("--store measures scenarios, not --fuzz-batches or --history-cost") }
        if controllerCountsGiven != nil, !ingest, !otherProcess {
            throw ValidationError("--controllers is for --ingest, or --store with --other-process")
        }
        if let given = scenariosGiven, !given.isSubset(of: Self.postgresScenarios) {
            throw ValidationError("--store measures scenarios 1, 3, 4 and 6; the others run on SQLite only")
        }
        #endif
    }

    // The readers below are the options' transforms: the argument parser reports what they
    // throw after the word and the option's name, with status 64.

    /// A positive count: digits with an optional k or M suffix, up to 100M.
    @Sendable static func count(_ text: String) throws -> Int {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("m") ? (lower.dropLast(), 1e6)
            : lower.hasSuffix("k") ? (lower.dropLast(), 1e3) : (lower[...], 1)
        guard let number = Double(digits), number > 0, number * scale <= 100_000_000 else {
            throw ValidationError("'\(text)' is not a count (use e.g. 10000, 100k or 1M)")
        }
        return Int(number * scale)
    }

    /// Counts separated by commas, at least one.
    @Sendable static func counts(_ text: String) throws -> [Int] {
        let counts = try text.split(separator: ",").map { try count(String($0)) }
        guard !counts.isEmpty else { throw ValidationError("give at least one size") }
        return counts
    }

    @Sendable static func scenarioNumbers(_ text: String) throws -> Set<Int> {
        let numbers = text.split(separator: ",").map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.map(allScenarios.contains) ?? false }) else {
            throw ValidationError("'\(text)' is not a list of scenario numbers 1 to 6 and 8 to 12 (7 is --other-process)")
        }
        return Set(numbers.compactMap { $0 })
    }

    @Sendable static func seed(_ text: String) throws -> UInt64 {
        guard let seed = FuzzSeed.parse(text) else {
            throw ValidationError("'\(text)' is not a seed (use e.g. 12345 or 0x3039)")
        }
        return seed
    }
}
