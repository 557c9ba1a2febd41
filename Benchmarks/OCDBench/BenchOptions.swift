import Foundation

/// The command line: which result sizes to measure, how often, and where to write the figures.
struct BenchOptions {
    var rowCounts = [10_000, 100_000, 1_000_000]
    var runs = 20
    var jsonPath: String?
    var chartPath: String?
    var dataDirectory: String?
    /// Only the insert scenario (6), which needs no data set: for profiling it alone.
    var insertOnly = false

    static let usage = """
        usage: ocd-bench [--rows N[,N…]] [--runs N] [--json PATH] [--chart PATH] [--data DIR] [--only insert]
          --rows   result sizes to measure, e.g. 10k,100k,1M (default 10k,100k,1M)
          --runs   timed runs per scenario (default 20; bulk and refetch scenarios use fewer)
          --json   write every figure as JSON
          --chart  write an SVG chart of change delivery against result size
          --data   keep the data sets in DIR and reuse them (default: a temporary directory)
          --only insert  run only scenario 6, --runs times, inserting min(100k, largest --rows) objects
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
            case "--runs":
                options.runs = try count(try value(for: flag), flag: flag)
            case "--json":
                options.jsonPath = try value(for: flag)
            case "--chart":
                options.chartPath = try value(for: flag)
            case "--data":
                options.dataDirectory = try value(for: flag)
            case "--only":
                let scenario = try value(for: flag)
                guard scenario == "insert" else { throw UsageError(description: "--only: '\(scenario)' is not a scenario (use insert)") }
                options.insertOnly = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                throw UsageError(description: "unknown option \(flag)")
            }
        }
        if options.rowCounts.isEmpty { throw UsageError(description: "--rows needs at least one size") }
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
