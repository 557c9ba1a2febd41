import Foundation

/// The figures of a run: clicks per second, and each click's latency to each page.
struct LoadReport {
    let pages: Int
    let stalled: Int
    let clickers: Int
    let seconds: Double
    let clicks: [Click]
    let arrivals: [[Int: Double]]

    /// Every (click, page) latency in milliseconds, and how many pages never got a click's batch.
    private var latencies: (samples: [Double], missed: Int) {
        var samples: [Double] = []
        samples.reserveCapacity(clicks.count * pages)
        var missed = 0
        for click in clicks {
            guard let seq = click.seq else {
                missed += pages
                continue
            }
            for page in arrivals {
                if let arrived = page[seq] { samples.append((arrived - click.sent) * 1000) } else { missed += 1 }
            }
        }
        return (samples.sorted(), missed)
    }

    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    var figures: Data {
        let (samples, missed) = latencies
        let object: [String: Any] = [
            "pages": pages, "stalledPages": stalled, "clickers": clickers, "seconds": seconds,
            "clicks": clicks.count, "clicksPerSecond": Double(clicks.count) / seconds,
            "latencyMs": ["p50": Self.percentile(samples, 0.5), "p99": Self.percentile(samples, 0.99), "max": samples.last ?? .nan],
            "deliveries": samples.count, "missedDeliveries": missed,
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }

    var summary: String {
        let (samples, missed) = latencies
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
        return """
            \(pages) pages (\(stalled) stalled), \(clickers) clickers, \(String(format: "%.1f", seconds)) s
            clicks: \(clicks.count), \(String(format: "%.1f", Double(clicks.count) / seconds))/s
            click-to-page latency over \(samples.count) deliveries: p50 \(ms(Self.percentile(samples, 0.5))), \
            p99 \(ms(Self.percentile(samples, 0.99))), max \(ms(samples.last ?? .nan))
            deliveries missed: \(missed)
            """
    }
}
