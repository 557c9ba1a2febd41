import Foundation

/// An SVG line chart on log–log axes: change-delivery time against result size, one line per
/// series. Written by hand, so that the benchmark needs no plotting dependency.
struct Chart {
    struct Series {
        var name: String
        var color: String
        var points: [(rows: Int, milliseconds: Double)]
    }

    var title: String
    var series: [Series]

    private let width = 640.0, height = 400.0
    private let left = 70.0, right = 180.0, top = 40.0, bottom = 50.0

    func svg() -> String {
        let all = series.flatMap(\.points).filter { $0.milliseconds > 0 && $0.milliseconds.isFinite }
        guard let minRows = all.map(\.rows).min(), let maxRows = all.map(\.rows).max(),
              let minTime = all.map(\.milliseconds).min(), let maxTime = all.map(\.milliseconds).max() else {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"
        }
        let xDecades = decades(Double(minRows), Double(maxRows))
        let yDecades = decades(minTime, maxTime)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ rows: Int) -> Double { left + fraction(log10(Double(rows)), of: xDecades) * plotWidth }
        func y(_ value: Double) -> Double { top + plotHeight - fraction(log10(value), of: yDecades) * plotHeight }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"22\" font-size=\"14\">\(escaped(title))</text>",
        ]
        for decade in xDecades {
            let position = left + fraction(Double(decade), of: xDecades) * plotWidth
            parts.append(line(position, top, position, top + plotHeight, "#ddd"))
            parts.append("<text x=\"\(position)\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(rowsLabel(decade))</text>")
        }
        for decade in yDecades {
            let position = top + plotHeight - fraction(Double(decade), of: yDecades) * plotHeight
            parts.append(line(left, position, left + plotWidth, position, "#ddd"))
            parts.append("<text x=\"\(left - 6)\" y=\"\(position + 4)\" text-anchor=\"end\">\(timeLabel(decade))</text>")
        }
        parts.append("<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 10)\" text-anchor=\"middle\">rows in the result</text>")
        for (index, entry) in series.enumerated() {
            let points = entry.points.filter { $0.milliseconds > 0 && $0.milliseconds.isFinite }.sorted { $0.rows < $1.rows }
            let path = points.map { "\(format(x($0.rows))),\(format(y($0.milliseconds)))" }.joined(separator: " ")
            parts.append("<polyline fill=\"none\" stroke=\"\(entry.color)\" stroke-width=\"2\" points=\"\(path)\"/>")
            for point in points {
                parts.append("<circle cx=\"\(format(x(point.rows)))\" cy=\"\(format(y(point.milliseconds)))\" r=\"3\" fill=\"\(entry.color)\"/>")
            }
            let legendY = top + 10 + Double(index) * 20
            parts.append(line(width - right + 15, legendY, width - right + 35, legendY, entry.color, width: 2))
            parts.append("<text x=\"\(width - right + 40)\" y=\"\(legendY + 4)\">\(escaped(entry.name))</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }

    /// Where a logarithm lies between the first and last decade, from 0 to 1.
    private func fraction(_ logarithm: Double, of decades: ClosedRange<Int>) -> Double {
        let span = Double(decades.upperBound - decades.lowerBound)
        return (logarithm - Double(decades.lowerBound)) / span
    }

    /// The powers of ten that bracket `low...high`.
    private func decades(_ low: Double, _ high: Double) -> ClosedRange<Int> {
        let first = Int(floor(log10(low))), last = Int(ceil(log10(high)))
        return first...max(first + 1, last)
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String, width: Double = 1) -> String {
        "<line x1=\"\(format(x1))\" y1=\"\(format(y1))\" x2=\"\(format(x2))\" y2=\"\(format(y2))\" stroke=\"\(color)\" stroke-width=\"\(width)\"/>"
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func rowsLabel(_ decade: Int) -> String {
        switch decade {
        case ..<3: String(Int(pow(10, Double(decade))))
        case 3..<6: "\(Int(pow(10, Double(decade - 3))))k"
        default: "\(Int(pow(10, Double(decade - 6))))M"
        }
    }

    private func timeLabel(_ decade: Int) -> String {
        decade < 0 ? String(format: "%g ms", pow(10, Double(decade))) : "\(Int(pow(10, Double(decade)))) ms"
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
