import Foundation

/// One measured figure: a scenario at one result size, with the baseline it is compared with.
struct Figure: Codable {
    var scenario: String
    var rows: Int
    var runs: Int
    var unit: String
    var median: Double
    var min: Double
    var max: Double
    var baseline: String?
    var baselineMedian: Double?
    /// The figure's median over the baseline's: below 1 is faster (or smaller) than the baseline.
    var ratio: Double?
    var target: String?

    init(_ scenario: String, rows: Int, samples: Samples, unit: String = "ms",
         baseline: (name: String, samples: Samples)? = nil, target: String? = nil) {
        self.scenario = scenario
        self.rows = rows
        runs = samples.values.count
        self.unit = unit
        median = samples.median
        min = samples.min
        max = samples.max
        self.baseline = baseline?.name
        baselineMedian = baseline?.samples.median
        ratio = baseline.map { samples.median / $0.samples.median }
        self.target = target
    }
}

enum Report {
    static func table(_ figures: [Figure]) -> String {
        var lines = ["| scenario | rows | runs | median | min | max | baseline | baseline median | ratio | target |",
                     "|---|---:|---:|---:|---:|---:|---|---:|---:|---|"]
        for figure in figures {
            let cells = [
                figure.scenario, "\(figure.rows)", "\(figure.runs)",
                format(figure.median, figure.unit), format(figure.min, figure.unit), format(figure.max, figure.unit),
                figure.baseline ?? "", figure.baselineMedian.map { format($0, figure.unit) } ?? "",
                figure.ratio.map(formatRatio) ?? "", figure.target ?? "",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    static func writeJSON(_ figures: [Figure], to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(figures).write(to: URL(fileURLWithPath: path))
    }

    private static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ms" where value < 10: String(format: "%.3f ms", value)
        case "ms": String(format: "%.1f ms", value)
        default: String(format: "%.1f", value) + " " + unit
        }
    }

    private static func formatRatio(_ ratio: Double) -> String {
        ratio < 1 ? String(format: "%.3f× (%.0f× faster)", ratio, 1 / ratio) : String(format: "%.2f×", ratio)
    }
}
