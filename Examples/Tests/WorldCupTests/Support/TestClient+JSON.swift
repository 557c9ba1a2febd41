import Foundation
import Hummingbird
import HummingbirdTesting
import WorldCupApp

extension TestClientProtocol {
    /// A request with a text body, answered with its status and body text.
    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil) async throws -> (status: HTTPResponse.Status, body: String) {
        let response = try await executeRequest(uri: uri, method: method, headers: [:], body: body.map { ByteBuffer(string: $0) })
        return (response.status, String(buffer: response.body))
    }

    /// `GET /api/teams`, decoded.
    func teams() async throws -> Table {
        let (status, body) = try await send(.get, "/api/teams")
        guard status == .ok else { throw WorldCupError(.malformedRequest, "GET /api/teams answered \(status): \(body)") }
        return try JSONDecoder().decode(Table.self, from: Data(body.utf8))
    }
}

/// The reason in an error body, `{"error":{"message":…}}`.
func errorMessage(_ body: String) -> String? {
    struct Body: Decodable {
        struct Error: Decodable { let message: String }
        let error: Error
    }
    return try? JSONDecoder().decode(Body.self, from: Data(body.utf8)).error.message
}
