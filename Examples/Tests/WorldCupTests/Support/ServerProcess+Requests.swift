import ExampleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WorldCupApp

extension ServerProcess {
    /// `count` servers on `store`, started one after another: each listens, so has seeded the
    /// store or found it seeded, before the next opens it. (Servers started together may each
    /// merge the seed's commit after their first fetch, as one more batch of updates: valid, but
    /// one more than a test counting batches expects.)
    static func started(_ count: Int, on store: ScratchStoreLocation) async throws -> [ServerProcess] {
        var servers: [ServerProcess] = []
        for _ in 0..<count {
            let server = try ServerProcess(store: store)
            try await server.waitUntilListening()
            servers.append(server)
        }
        return servers
    }

    /// The server's address, `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `GET /api/teams`: the store as a fresh fetch on this server reads it.
    func teams() async throws -> Table {
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: baseURL + "/api/teams")))
        return try JSONDecoder().decode(Table.self, from: data)
    }

    /// `POST path` with a JSON `body`; returns the status.
    func post(_ path: String, body: String = "{}") async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: baseURL + path)))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
