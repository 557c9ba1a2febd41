import Foundation
import Testing
import WorldCupApp

/// `--simulate`: wins from a background context of its own reach a page as batches.
@Suite struct WinSimulatorTests {
    @Test func simulatedWinsReachThePageAsBatches() async throws {
        let fixture = try await TestScoreboard()
        let before = try await fixture.freshFetch().teams.reduce(0) { $0 + $1.wins }
        let subscription = await fixture.scoreboard.subscribe()
        defer { subscription.cancel() }
        let feed = MessageFeed(subscription.messages)
        guard case .snapshot(0, _) = try await feed.next() else {
            Issue.record("the feed does not start with a snapshot")
            return
        }
        let simulator = Task { await WinSimulator(scoreboard: fixture.scoreboard, interval: .milliseconds(20)).run() }
        for seq in 1...3 {
            guard case .batch(seq, let batch) = try await feed.next() else {
                Issue.record("batch \(seq) did not come")
                break
            }
            #expect(batch.rows.allSatisfy { $0.change == .update || $0.change == .move })
        }
        simulator.cancel()
        _ = await simulator.value
        let after = try await fixture.freshFetch().teams.reduce(0) { $0 + $1.wins }
        #expect(after >= before + 3)
    }
}
