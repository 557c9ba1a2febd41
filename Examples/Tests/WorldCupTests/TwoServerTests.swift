import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WorldCupApp

/// Two `worldcup` processes on one SQLite file, as two servers behind a load balancer would
/// run: they seed a new store once between them, and a team name stays unique however many
/// requests add it at once, on either server.
@Suite(.serialized) struct TwoServerTests {
    /// A new directory for a store, removed when the test ends.
    private static func storeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WorldCupServers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func table(from port: Int) async throws -> Table {
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/api/teams")))
        return try JSONDecoder().decode(Table.self, from: data)
    }

    @Test(arguments: 1...4)
    func serversStartingTogetherOnANewStoreSeedItOnce(round: Int) async throws {
        let directory = try Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("WorldCup.sqlite")
        let seedCount = try TeamSeed.bundled().count
        // Three at once, so that the check of one and the seeding of another overlap.
        let servers = try (0..<3).map { _ in try ServerProcess(store: store) }
        for server in servers { try await server.waitUntilListening() }
        for server in servers {
            let table = try await Self.table(from: server.port)
            #expect(table.teams.count == seedCount, "round \(round): \(table.teams.count) teams, \(seedCount) seeded")
        }
    }

    /// One name, written as several clients would type it: the same team for the scoreboard.
    static let spellings: [[String]] = [
        ["Frostmark"],
        ["Brumeholm", "BRUMEHOLM", "brumeholm", "  Brumeholm "],
    ]

    @Test(arguments: spellings)
    func requestsAddingTheSameNameAtOnceOnTwoServersAddOneTeam(spellings: [String]) async throws {
        let directory = try Self.storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("WorldCup.sqlite")
        let servers = try (0..<2).map { _ in try ServerProcess(store: store) }
        for server in servers { try await server.waitUntilListening() }
        let ports = servers.map(\.port)

        let requests = 24
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<requests {
                group.addTask {
                    let name = spellings[index % spellings.count]
                    var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(ports[index % 2])/api/teams")))
                    request.httpMethod = "POST"
                    request.httpBody = Data(#"{"name": "\#(name)", "zone": "Islands"}"#.utf8)
                    let (_, response) = try await URLSession.shared.data(for: request)
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let name = spellings[0].trimmingCharacters(in: .whitespaces).lowercased()
        #expect(statuses.filter { $0 == 201 }.count == 1, "statuses: \(statuses.sorted())")
        #expect(statuses.filter { $0 == 409 }.count == requests - 1, "statuses: \(statuses.sorted())")
        for port in ports {
            let teams = try await Self.table(from: port).teams.filter { $0.name.lowercased() == name }
            #expect(teams.count == 1, "the server on port \(port) lists \(teams.map(\.name))")
        }
    }
}
