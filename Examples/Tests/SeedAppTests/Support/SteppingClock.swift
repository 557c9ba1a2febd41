import Foundation

/// A clock for the apps' creation dates that moves one second forward at each reading, so that
/// orders by date are known in advance and never tie, unless a test turns it back.
final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// The next date: a second after the previous reading.
    func next() -> Date {
        lock.withLock {
            current += 1
            return current
        }
    }

    /// The last date read.
    var last: Date {
        lock.withLock { current }
    }

    /// Moves the clock, as a user changing the system time would: backwards puts the next new
    /// row among the old ones.
    func jump(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}
