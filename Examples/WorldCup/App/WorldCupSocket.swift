public import Hummingbird
public import HummingbirdWebSocket
import Foundation

/// The WebSocket side of the server, at `/live`: a page's feed (a snapshot, then every batch)
/// and its requests (``ClientMessage``), answered with an ack or an error frame.
public enum WorldCupSocket {
    /// The path pages connect to.
    public static let path = "/live"
    /// The largest message carried out, in bytes; a larger one gets an error frame.
    public static let maxMessageSize = 4096
    /// The largest message read at all; a larger one closes the connection (code 1009).
    static let maxReadSize = 64 * 1024

    /// A router that upgrades `GET /live` and serves pages from `scoreboard`.
    public static func router(for scoreboard: Scoreboard) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(stringLiteral: path)) { inbound, outbound, _ in
            let subscription = await scoreboard.subscribe()
            defer { subscription.cancel() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                // One writer, so that batches and replies never interleave inside a frame.
                group.addTask {
                    for await text in subscription.messages { try await outbound.write(.text(text)) }
                    // The feed ended without the page leaving: the server is stopping.
                    if !Task.isCancelled { try await outbound.close(.goingAway, reason: "the server is stopping") }
                }
                for try await message in inbound.messages(maxSize: maxReadSize) {
                    await handle(message, from: subscription, scoreboard: scoreboard)
                }
                group.cancelAll()
            }
        }
        return router
    }

    /// Carries out one message and replies on the page's own feed.
    static func handle(_ message: WebSocketMessage, from subscription: ScoreboardSubscription, scoreboard: Scoreboard) async {
        guard case .text(let text) = message else {
            subscription.reply(.error(reason: "send JSON messages as text frames"))
            return
        }
        guard text.utf8.count <= maxMessageSize else {
            subscription.reply(.error(reason: "the message has \(text.utf8.count) bytes; at most \(maxMessageSize) are read"))
            return
        }
        do {
            switch try WorldCupJSON.decode(ClientMessage.self, from: Data(text.utf8)) {
            case .win(let team):
                subscription.reply(.ack(request: "win", team: try await scoreboard.addWin(to: team)))
            case .add(let newTeam):
                subscription.reply(.ack(request: "add", team: try await scoreboard.addTeam(newTeam)))
            case .snapshot:
                await subscription.requestSnapshot()
            }
        } catch let error as WorldCupError {
            subscription.reply(.error(reason: error.reason))
        } catch {
            subscription.reply(.error(reason: "the request failed: \(error)"))
        }
    }
}
