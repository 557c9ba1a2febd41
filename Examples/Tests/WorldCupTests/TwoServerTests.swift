import ExampleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WorldCupApp

/// Two `worldcup` processes on one store (an SQLite file, a PostgreSQL schema), as two servers
/// behind a load balancer would run: they seed a new store once between them, a team name stays
/// unique however many requests add it at once, on either server, and a win made on one server
/// reaches the pages of both.
@Suite(.serialized) struct TwoServerTests {
    @Test(arguments: ScratchStoreLocation.Kind.allCases, 1...4)
    func serversStartingTogetherOnANewStoreSeedItOnce(_ kind: ScratchStoreLocation.Kind, round: Int) async throws {
        let store = try ScratchStoreLocation(kind, fileName: "WorldCup.sqlite")
        let seedCount = try TeamSeed.bundled().count
        // Three at once, so that the check of one and the seeding of another overlap.
        let servers = try (0..<3).map { _ in try ServerProcess(store: store) }
        for server in servers { try await server.waitUntilListening() }
        for server in servers {
            let table = try await server.teams()
            #expect(table.teams.count == seedCount, "round \(round): \(table.teams.count) teams, \(seedCount) seeded")
        }
    }

    /// A click on one server's page appears on the other server's pages as a batch, as it does
    /// on its own server's: the other process's change feed, woken by the commit, merges it into
    /// its view context, whose controller turns it into the batch. Both directions, each within
    /// a bounded time; both servers' API then reads the same table.
    @Test(arguments: ScratchStoreLocation.Kind.allCases)
    func aWinPostedOnOneServerReachesThePagesOfBoth(_ kind: ScratchStoreLocation.Kind) async throws {
        let store = try ScratchStoreLocation(kind, fileName: "WorldCup.sqlite")
        let servers = try await ServerProcess.started(2, on: store)
        let seeded = try await servers[0].teams()
        // Each win moves its team up one row: Africa is section 0, Europe section 2.
        let clicks: [(server: Int, team: String, from: RowPosition, to: RowPosition, wins: Int)] = [
            (0, "Tamboro", RowPosition(section: 0, row: 2), RowPosition(section: 0, row: 1), 2),
            (1, "Castellune", RowPosition(section: 2, row: 2), RowPosition(section: 2, row: 1), 3),
        ]
        let seconds = 10.0

        try await MessageFeed.following(port: servers[0].port) { first in
            try await MessageFeed.following(port: servers[1].port) { second in
                let feeds = [first, second]
                for feed in feeds {
                    let snapshot = try await feed.next()
                    #expect(snapshot == .snapshot(seq: 0, table: seeded))
                }
                for (number, click) in clicks.enumerated() {
                    let id = try #require(seeded.teams.first { $0.name == click.team }).id
                    let batch = ServerMessage.batch(seq: number + 1, batch: ChangeBatch(
                        sections: [],
                        rows: [.init(change: .move, id: id, from: click.from, to: click.to, team: TeamRow(id: id, name: click.team, wins: click.wins))],
                        indexTitles: seeded.indexTitles))
                    #expect(try await servers[click.server].post("/api/teams/\(id)/win") == 200)
                    // The other server's page first: its wait is the one bounded here.
                    let other = 1 - click.server
                    let seenByTheOther = try await feeds[other].next(within: seconds)
                    #expect(seenByTheOther == batch, "\(click.team)'s win on server \(click.server), seen on server \(other)")
                    let seenByItsOwn = try await feeds[click.server].next(within: seconds)
                    #expect(seenByItsOwn == batch, "\(click.team)'s win on its own server")
                    let tables = [try await servers[0].teams(), try await servers[1].teams()]
                    #expect(tables[0] == tables[1])
                    #expect(tables[0].teams.first { $0.id == id }?.wins == click.wins)
                }
                // Nothing more: one commit, one batch on each page.
                try await Task.sleep(for: .milliseconds(300))
                for feed in feeds {
                    #expect(await feed.drain() == [])
                }
            }
        }
    }

    /// One name, written as several clients would type it: the same team for the scoreboard.
    static let spellings: [[String]] = [
        ["Frostmark"],
        ["Brumeholm", "BRUMEHOLM", "brumeholm", "  Brumeholm "],
    ]

    @Test(arguments: ScratchStoreLocation.Kind.allCases, spellings)
    func requestsAddingTheSameNameAtOnceOnTwoServersAddOneTeam(_ kind: ScratchStoreLocation.Kind, spellings: [String]) async throws {
        let store = try ScratchStoreLocation(kind, fileName: "WorldCup.sqlite")
        let servers = try (0..<2).map { _ in try ServerProcess(store: store) }
        for server in servers { try await server.waitUntilListening() }

        let requests = 24
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<requests {
                group.addTask {
                    let name = spellings[index % spellings.count]
                    return try await servers[index % 2].post("/api/teams", body: #"{"name": "\#(name)", "zone": "Islands"}"#)
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let name = spellings[0].trimmingCharacters(in: .whitespaces).lowercased()
        #expect(statuses.filter { $0 == 201 }.count == 1, "statuses: \(statuses.sorted())")
        #expect(statuses.filter { $0 == 409 }.count == requests - 1, "statuses: \(statuses.sorted())")
        for server in servers {
            let teams = try await server.teams().teams.filter { $0.name.lowercased() == name }
            #expect(teams.count == 1, "the server on port \(server.port) lists \(teams.map(\.name))")
        }
    }
}
