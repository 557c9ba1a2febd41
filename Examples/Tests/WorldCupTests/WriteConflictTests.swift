import ExampleSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCoreData
import Testing
import WorldCupApp

/// A click whose team keeps being saved by someone else between its read and its save: tried
/// again, and when every attempt loses, answered with 503 and a reason, and logged.
@Suite struct WriteConflictTests {
    /// Makes the next `conflicts` writes of the scoreboard meet a real concurrent save: just
    /// before each saves, another context adds a win to the same team and saves first.
    private static func interfere(with scoreboard: Scoreboard, times conflicts: Int) {
        let remaining = Locked(conflicts)
        scoreboard.willSave.withLock { willSave in
            willSave = { context in
                let interfere = remaining.withLock { count in
                    defer { count -= 1 }
                    return count > 0
                }
                guard interfere else { return }
                let ids = context.updatedObjects.map(\.objectID)
                let other = scoreboard.container.newBackgroundContext()
                try other.performAndWait {
                    for id in ids { (try other.existingObject(with: id) as? Team)?.wins += 1 }
                    try other.save()
                }
            }
        }
    }

    private static func wins(of id: String, in fixture: TestScoreboard) async throws -> Int {
        try #require(try await fixture.freshFetch().teams.first { $0.id == id }).wins
    }

    @Test(arguments: [0, 1, 4])
    func aClickThatMeetsConcurrentSavesIsTriedAgainAndCounted(conflicts: Int) async throws {
        let fixture = try await TestScoreboard()
        let tamboro = try #require(try await fixture.freshFetch().teams.first { $0.name == "Tamboro" })
        Self.interfere(with: fixture.scoreboard, times: conflicts)
        try await WorldCupServer.application(scoreboard: fixture.scoreboard, port: 0).test(.router) { client in
            let (status, body) = try await client.send(.post, "/api/teams/\(tamboro.id)/win")
            #expect(status == .ok, "\(body)")
        }
        // The click and every concurrent win count.
        #expect(try await Self.wins(of: tamboro.id, in: fixture) == tamboro.wins + 1 + conflicts)
    }

    @Test func aClickThatLosesEveryAttemptGets503WithAReasonAndIsLogged() async throws {
        let log = RecordedLog()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WorldCupTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scoreboard = try await Scoreboard.open(.file(directory.appendingPathComponent("WorldCup.sqlite")), logger: log.logger)
        defer { scoreboard.closeSubscriptions() }
        let tamboro = try #require(try await scoreboard.freshTable().teams.first { $0.name == "Tamboro" })
        Self.interfere(with: scoreboard, times: .max)

        let reason = "the team changed under 5 attempts in a row (other saves of it came first); try again"
        try await WorldCupServer.application(scoreboard: scoreboard, port: 0).test(.router) { client in
            let response = try await client.execute(uri: "/api/teams/\(tamboro.id)/win", method: .post)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect(errorMessage(String(buffer: response.body)) == reason, "\(String(buffer: response.body))")
        }
        #expect(log.lines.contains { $0.level == .warning && $0.message == "a win for \(tamboro.id) failed: \(reason)" },
                "\(log.lines)")
        // Only the concurrent saves counted: five attempts, five wins by the other context.
        let after = try #require(try await scoreboard.freshTable().teams.first { $0.id == tamboro.id })
        #expect(after.wins == tamboro.wins + 5)
    }
}
