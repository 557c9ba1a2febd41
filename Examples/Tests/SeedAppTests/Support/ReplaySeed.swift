import Foundation
import Testing

/// The seed of a random session: `SEED_APP_SEED` when set, to replay a failure, otherwise a new
/// one, printed when the session starts so that any failure can be replayed.
struct ReplaySeed {
    let value: UInt64

    init(_ test: String) {
        value = ProcessInfo.processInfo.environment["SEED_APP_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(test) seed: \(value) (set SEED_APP_SEED=\(value) to replay it)")
    }

    /// A comment for expectations, naming the seed.
    var replay: Comment { Comment(rawValue: "replay with SEED_APP_SEED=\(value)") }
}
