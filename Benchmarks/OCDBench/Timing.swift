import Foundation

/// Monotonic time in nanoseconds.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e6 }

/// Times of one scenario's runs, in milliseconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ milliseconds: Double) { values.append(milliseconds) }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The value at `fraction` of the sorted samples (nearest rank): 0.99 is the 99th percentile.
    func percentile(_ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
}

/// Resident memory, read from `/proc/self/statm` after returning freed heap pages to the system,
/// so that the figure is what is held, not what malloc keeps around.
enum ResidentMemory {
    static func bytes() -> Int {
        _ = mallocTrim(0)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @_silgen_name("malloc_trim")
    private static func mallocTrim(_ pad: Int) -> Int32
}
