#if Postgres
import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Commits that no coordinator of this process made reach its controllers on a PostgreSQL store
/// through the store's channel (`LISTEN`), and, when a notification is lost, through the
/// catch-up check within its interval. The writer here is plain SQL on another session, as any
/// program writing around the library (or a server whose notification is lost) would be; the
/// cross-process fuzzer covers another process of the library.
@Suite struct PostgresChangeFeedTests {
    typealias LiveTeams = ChangeFeedTests.LiveTeams

    /// A PostgreSQL stack of 12 teams whose catch-up interval is `catchUp` seconds, with a
    /// controller on a merging context.
    private func stack(catchUp: Double) throws -> (HistoryStack, LiveTeams, PostgresTestSchema) {
        let schema = try PostgresTestSchema()
        let stack = try HistoryStack(.postgres, postgresSchema: schema) { description in
            description.url = URL(string: schema.storeURL + "&catchup=\(catchUp)")
        }
        for index in 0..<12 { try stack.insertTeam("Team \(index)", wins: Int16(index % 5)) }
        return (stack, try LiveTeams(stack, merging: true), schema)
    }

    /// Waits until the commits up to `generation` have been queued to the stack's merging
    /// contexts; returns how long that took.
    private func waitForGeneration(_ generation: Int64, _ stack: HistoryStack, within limit: TimeInterval) throws -> TimeInterval {
        let start = Date()
        while stack.coordinator.generationGivenToContexts < generation {
            try #require(Date().timeIntervalSince(start) < limit,
                         "generation \(generation) did not reach the contexts within \(limit) s (at \(stack.coordinator.generationGivenToContexts))")
            Thread.sleep(forTimeInterval: 0.005)
        }
        return Date().timeIntervalSince(start)
    }

    private func generation(_ schema: PostgresTestSchema) throws -> Int64 {
        let text = try schema.execute([#"SELECT "value"::text FROM _ocd_generation"#]).first ?? nil
        return try #require(text.flatMap { Int64($0) }, "the generation reads \(String(describing: text))")
    }

    @Test func aCommitOfAnotherSessionWakesTheProcessByItsNotification() throws {
        // With a catch-up check once an hour, only the notification can deliver in time.
        let (stack, teams, schema) = try stack(catchUp: 3600)
        try schema.execute([#"UPDATE "Team" SET "wins" = 50 WHERE "teamName" = 'Team 3'"#])
        _ = try waitForGeneration(try generation(schema), stack, within: 5)
        teams.context.performAndWait {}
        #expect(try teams.checkBatches() == 1)
    }

    @Test func aCommitWhoseNotificationIsLostArrivesWithinTheCatchUpInterval() throws {
        let (stack, teams, schema) = try stack(catchUp: 1)
        // A commit that sends no notification: the generation triggers stand aside for a
        // transaction that says it is the library's, and this one then notifies nobody.
        try schema.execute([
            "BEGIN", "SET LOCAL ocd.saving = 'on'",
            #"UPDATE "Team" SET "wins" = 40, "_version" = "_version" + 1 WHERE "teamName" = 'Team 1'"#,
            #"UPDATE _ocd_generation SET "value" = "value" + 1"#, "COMMIT",
        ])
        let waited = try waitForGeneration(try generation(schema), stack, within: 1.5)
        teams.context.performAndWait {}
        #expect(try teams.checkBatches() == 1)
        print("a commit without notification arrived after \(Int(waited * 1000)) ms (catch-up interval 1 s)")
    }

    @Test func theListenerReconnectsAndCatchesUpWhenItsSessionEnds() throws {
        let (stack, teams, schema) = try stack(catchUp: 3600)
        // The listener's session names the store's channel.
        let store = try #require(stack.coordinator.persistentStores.first)
        let channel = "ocd_" + store.identifier.replacingOccurrences(of: "-", with: "").lowercased()
        let listener = "application_name = 'OpenCoreData listener \(channel)'"
        let before = try schema.execute(["SELECT pid::text FROM pg_stat_activity WHERE \(listener)"])
        try #require(before.count == 1, "one listener session for the store, found \(before)")
        // The session ends, and commits are made while the listener is away.
        try schema.execute(["SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE \(listener)"])
        for round in 0..<3 {
            try schema.execute([#"UPDATE "Team" SET "wins" = \#(60 + round) WHERE "teamName" = 'Team \#(round)'"#])
        }
        _ = try waitForGeneration(try generation(schema), stack, within: 5)
        teams.context.performAndWait {}
        #expect(try teams.checkBatches() >= 1)
        let deadline = Date().addingTimeInterval(5)
        var after = try schema.execute(["SELECT pid::text FROM pg_stat_activity WHERE \(listener)"])
        while after.isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            after = try schema.execute(["SELECT pid::text FROM pg_stat_activity WHERE \(listener)"])
        }
        #expect(after.count == 1 && after != before, "the listener did not come back in a new session: \(before) then \(after)")
        // Listening again: the next commit arrives by its notification.
        try schema.execute([#"UPDATE "Team" SET "wins" = 70 WHERE "teamName" = 'Team 7'"#])
        _ = try waitForGeneration(try generation(schema), stack, within: 5)
        teams.context.performAndWait {}
        #expect(try teams.checkBatches() == 1)
    }
}
#endif
