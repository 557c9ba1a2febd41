import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WorldCupApp

/// The HTTP routes, through Hummingbird's router test client.
@Suite struct ServerRouteTests {
    private func app(_ fixture: TestScoreboard) throws -> some ApplicationProtocol {
        try WorldCupServer.application(scoreboard: fixture.scoreboard, port: 0)
    }

    @Test func teamsAreAFreshFetchInTheScoreboardsOrder() async throws {
        let fixture = try await TestScoreboard()
        try await app(fixture).test(.router) { client in
            let table = try await client.teams()
            #expect(table == (try await fixture.freshFetch()))
            #expect(table.sections.map(\.name) == ["Africa", "Asia", "Europe", "North & Central America", "Oceania", "South America"])
            #expect(table.indexTitles == ["A", "E", "N", "O", "S"])
            for section in table.sections {
                let ranked = section.teams.sorted { ($1.wins, $0.name) < ($0.wins, $1.name) }
                #expect(section.teams == ranked, "\(section.name) is not ranked by wins, then name")
            }
        }
    }

    @Test func aWinMovesATeamAheadOfTheTeamsItPasses() async throws {
        let fixture = try await TestScoreboard()
        try await app(fixture).test(.router) { client in
            let before = try await client.teams()
            #expect(before.names["Africa"] == ["Kessaria", "Nuvanga", "Tamboro", "Zalindi"])
            let tamboro = try #require(before.teams.first { $0.name == "Tamboro" })
            let (status, body) = try await client.send(.post, "/api/teams/\(tamboro.id)/win")
            #expect(status == .ok)
            let reply = try JSONDecoder().decode(WorldCupRoutes.TeamReply.self, from: Data(body.utf8))
            #expect(reply.team == TeamRow(id: tamboro.id, name: "Tamboro", wins: 2))
            let after = try await client.teams()
            #expect(after.names["Africa"] == ["Kessaria", "Tamboro", "Nuvanga", "Zalindi"])
            #expect(after == (try await fixture.freshFetch()))
        }
    }

    @Test func aTeamInANewZoneMakesANewSection() async throws {
        let fixture = try await TestScoreboard()
        try await app(fixture).test(.router) { client in
            let (status, body) = try await client.send(.post, "/api/teams", body: #"{"name": "  Brumeholm ", "zone": "Islands"}"#)
            #expect(status == .created, "\(body)")
            let table = try await client.teams()
            #expect(table.sections.map(\.name).contains("Islands"))
            #expect(table.names["Islands"] == ["Brumeholm"])
            #expect(table.indexTitles == ["A", "E", "I", "N", "O", "S"])
        }
    }

    /// A request the server refuses, and what it must say.
    struct BadRequest: Sendable, CustomTestStringConvertible {
        let label: String
        let method: HTTPRequest.Method
        let uri: String
        let body: String?
        let status: HTTPResponse.Status
        let reason: String
        var testDescription: String { label }
    }

    static let badRequests: [BadRequest] = [
        .init(label: "empty name", method: .post, uri: "/api/teams", body: #"{"name": "", "zone": "Asia"}"#,
              status: .badRequest, reason: "the team's name is empty"),
        .init(label: "blank name", method: .post, uri: "/api/teams", body: #"{"name": " \t\n ", "zone": "Asia"}"#,
              status: .badRequest, reason: "the team's name is empty"),
        .init(label: "name of 61 characters", method: .post, uri: "/api/teams",
              body: #"{"name": "\#(String(repeating: "é", count: 61))", "zone": "Asia"}"#,
              status: .badRequest, reason: "the team's name has 61 characters; at most 60 are allowed"),
        .init(label: "zone of 41 characters", method: .post, uri: "/api/teams",
              body: #"{"name": "Vale", "zone": "\#(String(repeating: "z", count: 41))"}"#,
              status: .badRequest, reason: "the team's zone has 41 characters; at most 40 are allowed"),
        .init(label: "empty zone", method: .post, uri: "/api/teams", body: #"{"name": "Vale", "zone": ""}"#,
              status: .badRequest, reason: "the team's zone is empty"),
        .init(label: "control character", method: .post, uri: "/api/teams", body: #"{"name": "Va\u0000le", "zone": "Asia"}"#,
              status: .badRequest, reason: "the team's name contains control characters"),
        .init(label: "missing zone", method: .post, uri: "/api/teams", body: #"{"name": "Vale"}"#,
              status: .badRequest, reason: #"the JSON has no "zone" field"#),
        .init(label: "name not a string", method: .post, uri: "/api/teams", body: #"{"name": 7, "zone": "Asia"}"#,
              status: .badRequest, reason: #""name" should be a string"#),
        .init(label: "not JSON", method: .post, uri: "/api/teams", body: "name=Vale&zone=Asia",
              status: .badRequest, reason: "the request is not valid JSON"),
        .init(label: "not an object", method: .post, uri: "/api/teams", body: #"["Vale", "Asia"]"#,
              status: .badRequest, reason: "expected a JSON object, not an array"),
        .init(label: "null", method: .post, uri: "/api/teams", body: "null",
              status: .badRequest, reason: "expected a JSON object, not null"),
        .init(label: "no body", method: .post, uri: "/api/teams", body: nil,
              status: .badRequest, reason: "the request is not valid JSON"),
        .init(label: "body too large", method: .post, uri: "/api/teams",
              body: #"{"name": "\#(String(repeating: "x", count: 5000))", "zone": "Asia"}"#,
              status: .contentTooLarge, reason: "the body is larger than 4096 bytes"),
        .init(label: "existing name in another case", method: .post, uri: "/api/teams", body: #"{"name": "ALDORIA", "zone": "Asia"}"#,
              status: .conflict, reason: #"a team named "ALDORIA" already exists"#),
        .init(label: "unknown team", method: .post, uri: "/api/teams/p999/win", body: nil,
              status: .notFound, reason: #"no team has the ID "p999""#),
        .init(label: "team ID of another shape", method: .post, uri: "/api/teams/Aldoria/win", body: nil,
              status: .notFound, reason: #"no team has the ID "Aldoria""#),
        .init(label: "team ID reaching into the URI", method: .post, uri: "/api/teams/p1%2F..%2Fx/win", body: nil,
              status: .notFound, reason: #"no team has the ID "p1%2F..%2Fx""#),
    ]

    @Test(arguments: badRequests)
    func aBadRequestIsRefusedWithItsReasonAndTheServerKeepsServing(_ bad: BadRequest) async throws {
        let fixture = try await TestScoreboard()
        try await app(fixture).test(.router) { client in
            let before = try await client.teams()
            let (status, body) = try await client.send(bad.method, bad.uri, body: bad.body)
            #expect(status == bad.status, "\(body)")
            #expect(errorMessage(body) == bad.reason, "\(body)")
            #expect(try await client.teams() == before)
        }
    }

    @Test func teamNamesInThePageAreEscaped() async throws {
        let fixture = try await TestScoreboard()
        let name = "<script>alert(1)</script>"
        try await app(fixture).test(.router) { client in
            let (status, body) = try await client.send(.post, "/api/teams", body: #"{"name": "\#(name)", "zone": "</script><b>Zone</b>"}"#)
            #expect(status == .created, "\(body)")
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            let html = String(buffer: page.body)
            #expect(!html.contains(name))
            #expect(!html.contains("</script><b>"))
            #expect(html.contains(#"\u003cscript\u003ealert(1)\u003c/script\u003e"#))
            // The script element holds JSON that reads back as the names, unchanged.
            let start = try #require(html.range(of: #"<script type="application/json" id="initial-snapshot">"#))
            let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
            let snapshot = try JSONDecoder().decode(ServerMessage.self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
            guard case .snapshot(_, let table) = snapshot else {
                Issue.record("the page's data is not a snapshot")
                return
            }
            #expect(table.teams.contains { $0.name == name })
            #expect(table.sections.contains { $0.name == "</script><b>Zone</b>" })
        }
    }

    @Test func thePagesFilesAreServed() async throws {
        let fixture = try await TestScoreboard()
        try await app(fixture).test(.router) { client in
            for (path, type) in [("/page.js", "text/javascript"), ("/table.js", "text/javascript"), ("/style.css", "text/css")] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix(type) == true)
                #expect(response.body.readableBytes > 100)
            }
        }
    }
}
