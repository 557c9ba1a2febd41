public import Hummingbird
import Foundation

/// The HTTP side of the server: the page, its scripts, and the JSON API.
///
/// | route | answer |
/// |---|---|
/// | `GET /` | the page, with the table as it is now |
/// | `GET /page.js`, `/table.js`, `/style.css` | the page's files |
/// | `GET /api/teams` | a fresh fetch: ``Table`` as JSON |
/// | `POST /api/teams` | `{"name":…,"zone":…}` adds a team: 201 `{"team":…}` |
/// | `POST /api/teams/{id}/win` | adds a win: 200 `{"team":…}`; 404 for an unknown team |
///
/// Refusals are 4xx with `{"error":{"message": reason}}`; a click whose team kept changing under
/// it is 503 with `Retry-After`, and a failure of the server's own is 500, both with the same
/// body and a line in the log.
public enum WorldCupRoutes {
    /// The largest request body read, in bytes: a team is well under it.
    public static let maxBodySize = 4096

    /// A router serving `scoreboard`; add routes to it before building the application.
    ///
    /// - Throws: ``WorldCupError`` when a bundled file is missing.
    public static func router(for scoreboard: Scoreboard) throws -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: UnexpectedErrorMiddleware())
        let page = try PageTemplate()
        router.get("/") { _, _ -> Response in
            let (seq, table) = await scoreboard.snapshot()
            return try textResponse(page.render(.snapshot(seq: seq, table: table)), contentType: "text/html; charset=utf-8")
        }
        for (path, type) in [("page.js", "text/javascript"), ("table.js", "text/javascript"), ("style.css", "text/css")] {
            let text = try WorldCupResources.text(named: path)
            router.get(RouterPath(stringLiteral: "/" + path)) { _, _ in textResponse(text, contentType: type + "; charset=utf-8") }
        }
        router.get("/api/teams") { _, _ in
            try jsonResponse(try await scoreboard.freshTable())
        }
        router.post("/api/teams") { request, _ in
            let newTeam = try WorldCupJSON.decode(NewTeam.self, from: try await body(of: request))
            return try jsonResponse(TeamReply(team: try await scoreboard.addTeam(newTeam)), status: .created)
        }
        router.post("/api/teams/{id}/win") { _, context in
            let id = try context.parameters.require("id")
            return try jsonResponse(TeamReply(team: try await scoreboard.addWin(to: id)))
        }
        return router
    }

    /// What the POST routes answer with.
    public struct TeamReply: Codable, Sendable, Equatable {
        /// The team after the request.
        public var team: TeamRow
    }

    private static func body(of request: Request) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: maxBodySize)
            return Data(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: "the body is larger than \(maxBodySize) bytes")
        }
    }

    private static func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: try WorldCupJSON.encode(value))))
    }

    private static func textResponse(_ text: String, contentType: String) -> Response {
        // The page's own files only: scripts, styles and the socket on this origin, so a name
        // that slipped past escaping still could not load or run anything.
        Response(status: .ok, headers: [
            .contentType: contentType,
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
            .xContentTypeOptions: "nosniff",
        ], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
