import FetchedResultsChecking
import Foundation

/// The command line: which result sizes to measure, how often, and where to write the figures;
/// or how many batches the fuzzer checks.
struct BenchOptions {
    var rowCounts = [10_000, 100_000, 1_000_000]
    /// Whether `--rows` was given: with `--fuzz-batches`, the timing scenarios run only then.
    var rowsGiven = false
    var runs = 20
    var jsonPath: String?
    var chartPath: String?
    var dataDirectory: String?
    var fuzzBatches: Int?
    var fuzzSeed: UInt64?
    /// The scenarios to run, by number; 1, 2 and 5 share their runs and come together.
    var scenarios: Set<Int> = [1, 2, 3, 4, 5, 6]

    /// The timing scenarios run unless only the fuzzer was asked for.
    var measuresTimings: Bool { fuzzBatches == nil || rowsGiven }

    static let usage = """
        usage: ocd-bench [--rows N[,N…]] [--runs N] [--scenarios N[,N…]] [--json PATH] [--chart PATH]
                         [--data DIR] [--fuzz-batches N [--seed S]]
          --rows          result sizes to measure, e.g. 10k,100k,1M (default 10k,100k,1M)
          --runs          timed runs per scenario (default 20; bulk and refetch scenarios use fewer)
          --scenarios     which scenarios to run, e.g. 4 or 1,6 (default all; 1, 2 and 5 run together)
          --json          write every figure as JSON
          --chart         write an SVG chart of change delivery against result size
          --data          keep the data sets in DIR and reuse them (default: a temporary directory)
          --fuzz-batches  check N random change batches (e.g. 1M) with the controller's
                          differential fuzzer, spread over its configurations and the cores, and
                          print what was checked; exit status 1 on a mismatch. The timing
                          scenarios are then skipped unless --rows is given too
          --seed          the fuzzer's base seed, decimal or 0x hex; the default, \(FuzzSeed.text(FuzzSeed.standard)), is
                          the tests', so --fuzz-batches 6800 checks what `swift test` checks
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return value
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--rows":
                let text = try value(for: flag)
                options.rowCounts = try text.split(separator: ",").map { try count(String($0), flag: flag) }
                options.rowsGiven = true
            case "--runs":
                options.runs = try count(try value(for: flag), flag: flag)
            case "--scenarios":
                let text = try value(for: flag)
                let numbers = text.split(separator: ",").map { Int($0) }
                guard !numbers.isEmpty, numbers.allSatisfy({ $0.map { (1...6).contains($0) } ?? false }) else {
                    throw UsageError(description: "--scenarios: '\(text)' is not a list of scenario numbers 1 to 6")
                }
                options.scenarios = Set(numbers.compactMap { $0 })
            case "--json":
                options.jsonPath = try value(for: flag)
            case "--chart":
                options.chartPath = try value(for: flag)
            case "--data":
                options.dataDirectory = try value(for: flag)
            case "--fuzz-batches":
                options.fuzzBatches = try count(try value(for: flag), flag: flag)
            case "--seed":
                let text = try value(for: flag)
                guard let seed = FuzzSeed.parse(text) else {
                    throw UsageError(description: "--seed: '\(text)' is not a seed (use e.g. 12345 or 0x3039)")
                }
                options.fuzzSeed = seed
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                throw UsageError(description: "unknown option \(flag)")
            }
        }
        if options.rowCounts.isEmpty { throw UsageError(description: "--rows needs at least one size") }
        if options.fuzzSeed != nil, options.fuzzBatches == nil { throw UsageError(description: "--seed is for --fuzz-batches") }
        return options
    }

    /// A positive count: digits with an optional k or M suffix.
    static func count(_ text: String, flag: String) throws -> Int {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("m") ? (lower.dropLast(), 1e6)
            : lower.hasSuffix("k") ? (lower.dropLast(), 1e3) : (lower[...], 1)
        guard let number = Double(digits), number > 0, number * scale <= 100_000_000 else {
            throw UsageError(description: "\(flag): '\(text)' is not a count (use e.g. 10000, 100k or 1M)")
        }
        return Int(number * scale)
    }
}
