import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WorldCupApp

/// `--check`: the server on a free port, asked once for the page and once for the API, then
/// stopped; for CI, which must not leave a server running.
enum SelfCheck {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ scoreboard: Scoreboard, host: String, limits: ConnectionLimits) async throws {
        try await WorldCupServer.withServer(scoreboard: scoreboard, host: host, limits: limits) { port in
            let base = "http://\(host):\(port)"
            let page = try await get(base + "/")
            guard page.contains("<title>") else { throw Failure(description: "GET / did not return the page") }
            let table = try JSONDecoder().decode(Table.self, from: Data(try await get(base + "/api/teams").utf8))
            let teams = table.sections.reduce(0) { $0 + $1.teams.count }
            print("worldcup: check passed: \(teams) teams in \(table.sections.count) zones, served on \(base)")
        }
    }

    private static func get(_ address: String) async throws -> String {
        guard let url = URL(string: address) else { throw Failure(description: "bad address \(address)") }
        let (data, response) = try await URLSession.shared.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode
        guard status == 200 else { throw Failure(description: "GET \(address) answered \(status.map(String.init) ?? "no status")") }
        return String(decoding: data, as: UTF8.self)
    }
}
