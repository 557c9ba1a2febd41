import Foundation
import WorldCupApp

/// A table, the batches that followed it and the table they led to: what the browser test
/// replays through table.js's `applyBatch`.
struct RecordedBatches: Codable {
    var initial: Table
    var batches: [ChangeBatch]
    var final: Table

    /// Records `steps` random writes to a new scoreboard, seeded with `seed`.
    static func record(seed: UInt64, steps: Int) async throws -> RecordedBatches {
        let fixture = try await TestScoreboard()
        let subscription = await fixture.scoreboard.subscribe()
        defer { subscription.cancel() }
        let feed = MessageFeed(subscription.messages)
        guard case .snapshot(_, let initial) = try await feed.next() else { throw MessageFeed.Timeout(seconds: 0) }
        var writes = RandomWrites(fixture, seed: seed)
        var batches: [ChangeBatch] = []
        for _ in 0..<steps {
            _ = try await writes.step()
            if case .batch(_, let batch) = try await feed.next() { batches.append(batch) }
        }
        return RecordedBatches(initial: initial, batches: batches, final: try await fixture.freshFetch())
    }
}
