import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing
import WorldCupApp

/// The scoreboard's batches, as a page receives them: each one, applied with a table view's
/// batch-update rules to the table before it, gives the table a fresh fetch shows.
@Suite struct ScoreboardBatchTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func eachBatchTurnsThePreviousTableIntoAFreshFetch(seed: UInt64) async throws {
        let fixture = try await TestScoreboard()
        let scoreboard = fixture.scoreboard
        let subscription = await scoreboard.subscribe()
        defer { subscription.cancel() }
        let feed = MessageFeed(subscription.messages)

        guard case .snapshot(var seq, let first) = try await feed.next() else {
            Issue.record("the feed does not start with a snapshot")
            return
        }
        #expect(first == (try await fixture.freshFetch()))
        var rows = try first.list(in: scoreboard)
        var values = Dictionary(uniqueKeysWithValues: first.teams.map { ($0.id, $0) })
        var writes = RandomWrites(fixture, seed: seed)
        var seen = Set<String>()
        for step in 0..<150 {
            let write = try await writes.step()
            guard case .batch(let batchSeq, let batch) = try await feed.next() else {
                Issue.record("step \(step) (\(write)): the next message is not a batch")
                return
            }
            #expect(batchSeq == seq + 1, "step \(step) (\(write)): batch \(batchSeq) after \(seq)")
            seq = batchSeq
            let fresh = try await fixture.freshFetch()
            // A move to its own index path is the controller's way to say the row crossed others.
            rows = try rows.verifyApplying(try batch.changes(in: scoreboard), mapping: .deleteAndInsert, allowingMovesInPlace: true,
                                           expected: try fresh.list(in: scoreboard))
            // The rows the batch names carry the teams' values now; the others kept theirs.
            for change in batch.rows {
                #expect((change.team == nil) == (change.change == .delete) && (change.team?.id ?? change.id) == change.id)
                values[change.id] = change.team
            }
            #expect(fresh.teams.map { values[$0.id] } == fresh.teams, "step \(step) (\(write)): team values")
            #expect(batch.indexTitles == fresh.indexTitles, "step \(step) (\(write)): index titles")
            seen.formUnion(batch.sections.map { "section \($0.change)" } + batch.rows.map { "row \($0.change)" })
            for inserted in batch.sections where inserted.change == .insert {
                #expect(inserted.title == fresh.sections[inserted.index].title)
            }
        }
        // The run is long enough to make every kind of change, so none goes unchecked.
        #expect(seen == ["section insert", "section delete", "row insert", "row delete", "row move", "row update"])
        let extra = await feed.drain()
        #expect(extra.isEmpty, "messages after the last write: \(extra)")
    }

    @Test func aSubscriberJoiningLateStartsFromTheTableNow() async throws {
        let fixture = try await TestScoreboard()
        let scoreboard = fixture.scoreboard
        let id = try #require(try await fixture.freshFetch().teams.first?.id)
        _ = try await scoreboard.addWin(to: id)
        _ = try await scoreboard.addWin(to: id)
        // Both saves are merged (and batched) before a block enqueued on the view context runs.
        let (seq, _) = await scoreboard.snapshot()
        let subscription = await scoreboard.subscribe()
        defer { subscription.cancel() }
        let feed = MessageFeed(subscription.messages)
        guard case .snapshot(let snapshotSeq, let table) = try await feed.next() else {
            Issue.record("the feed does not start with a snapshot")
            return
        }
        #expect(snapshotSeq == seq)
        #expect(table == (try await fixture.freshFetch()))
        await subscription.requestSnapshot()
        guard case .snapshot(let again, _) = try await feed.next() else {
            Issue.record("a requested snapshot did not come")
            return
        }
        #expect(again == seq)
    }
}
