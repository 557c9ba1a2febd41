import ArgumentParser
import FetchedResultsChecking

/// The command line: which result sizes to measure, how often, and where to write the figures;
/// or how many batches the fuzzer checks.
struct BenchOptions: ParsableArguments {
    /// The result sizes measured unless `--rows` says otherwise.
    static let standardRowCounts = [10_000, 100_000, 1_000_000]
    /// Every scenario, by number.
    static let allScenarios: Set<Int> = [1, 2, 3, 4, 5, 6, 8, 9, 10]

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

    func validate() throws {
        if fuzzSeed != nil, fuzzBatches == nil { throw ValidationError("--seed is for --fuzz-batches") }
        if historyCost, fuzzBatches != nil { throw ValidationError("--history-cost and --fuzz-batches are separate runs") }
        if historyCost, otherProcess { throw ValidationError("--history-cost and --other-process are separate runs") }
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
            throw ValidationError("'\(text)' is not a list of scenario numbers 1 to 6 and 8 to 10 (7 is --other-process)")
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
