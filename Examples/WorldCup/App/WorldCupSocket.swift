public import Hummingbird
public import HummingbirdWebSocket
import Foundation
public import NIOCore
import NIOWebSocket

/// The WebSocket side of the server, at `/live`: a page's feed (a snapshot, then every batch)
/// and its requests (``ClientMessage``), answered with an ack or an error frame.
public enum WorldCupSocket {
    /// The path pages connect to.
    public static let path = "/live"
    /// The largest message carried out, in bytes; a larger one gets an error frame.
    public static let maxMessageSize = 4096
    /// The largest message read at all, in bytes, and the largest frame. A message sent in
    /// frames that add up to more gets an error frame, then the connection closes with code 1009
    /// and the same reason. A single frame larger than this is refused by SwiftNIO's frame
    /// decoder, before the server sees it, with code 1009 and no reason.
    public static let maxReadSize = 64 * 1024

    /// The WebSocket settings the server upgrades with: frames as large as ``maxReadSize``, so
    /// that a message sent in one frame (as browsers send them) reaches the size checks here,
    /// and close frames' reasons checked for UTF-8.
    public static let configuration = WebSocketServerConfiguration(maxFrameSize: maxReadSize, validateUTF8: true)

    /// A router that upgrades `GET /live` and serves pages from `scoreboard`.
    ///
    /// A connection about to be upgraded gets ``MaskedFrameCheck``, which closes it with 1002 if
    /// its client sends an unmasked frame.
    public static func router(for scoreboard: Scoreboard) -> Router<WorldCupSocketContext> {
        let router = Router(context: WorldCupSocketContext.self)
        router.ws(RouterPath(stringLiteral: path), shouldUpgrade: { _, context in
            try await MaskedFrameCheck.install(on: context.channel)
            return .upgrade([:])
        }) { inbound, outbound, context in
            // A page that stops reading is closed once its queue is full; the write it is stuck
            // in then fails, and its handling ends.
            let channel = context.requestContext.channel
            let subscription = await scoreboard.subscribe(onOverflow: { channel.close(promise: nil) })
            defer { subscription.cancel() }
            try await withThrowingTaskGroup(of: Ending.self) { group in
                // One writer, so that batches and replies go out in the order they were made.
                group.addTask {
                    do {
                        // The message's bytes as they are, shared with every other page.
                        for await message in subscription.messages {
                            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: message.bytes)))
                        }
                    } catch {
                        return .writeFailed
                    }
                    return .feedEnded
                }
                group.addTask {
                    var messages = InboundMessages(inbound, maxSize: maxReadSize)
                    while let next = try await messages.next() {
                        switch next {
                        case .message(let message):
                            await handle(message, from: subscription, scoreboard: scoreboard)
                        case .refused(let refusal):
                            return .refused(refusal)
                        }
                    }
                    return .pageLeft
                }
                var ending = try await group.next()
                // A connection that broke under a write ends the reading too; until then the page's
                // requests are still carried out.
                if case .writeFailed = ending { ending = try await group.next() }
                switch ending {
                case .feedEnded:
                    // The feed ended without the page leaving: the server is stopping. The page
                    // answers the close, which ends the reading.
                    try await outbound.close(.goingAway, reason: "the server is stopping")
                case .refused(let refusal):
                    // The page learns why on its feed, after everything already sent to it, then
                    // in the close frame.
                    subscription.reply(.error(reason: refusal.reason))
                    subscription.cancel()
                    _ = try await group.next()
                    try await outbound.close(refusal.closeCode, reason: refusal.reason)
                case .pageLeft, .writeFailed, nil:
                    // Nothing more to write to a page that left.
                    group.cancelAll()
                }
            }
        }
        return router
    }

    /// Why one of a connection's two tasks ended.
    enum Ending: Sendable {
        /// The page closed the connection.
        case pageLeft
        /// The page's feed ended: the server is stopping, or the connection is being closed.
        case feedEnded
        /// Writing to the page failed.
        case writeFailed
        /// The page sent something the server stops reading at.
        case refused(InboundMessages.Refusal)
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
            scoreboard.logger.error("a page's request failed: \(error)", metadata: ["error.type": "\(type(of: error))"])
            subscription.reply(.error(reason: "the server could not carry out the request: \(error)"))
        }
    }
}

/// A page's messages, put together from their frames as `messages(maxSize:)` does, but with the
/// reason when one cannot be read: that reader throws an error the server cannot tell apart from
/// others, and the connection then closes without saying why.
struct InboundMessages {
    /// Why the server stops reading a page's messages.
    enum Refusal: Sendable, Equatable {
        /// A message longer than the most the server reads.
        case tooLarge(maxSize: Int)
        /// A frame that continues no message, or a message begun inside another.
        case outOfOrder(String)
        /// A text message that is not UTF-8.
        case invalidUTF8

        /// The reason, for the error frame and the close frame (at most 123 bytes).
        var reason: String {
            switch self {
            case .tooLarge(let maxSize):
                "the message has more than \(maxSize) bytes, the most the server reads; the connection closes"
            case .outOfOrder(let reason):
                reason
            case .invalidUTF8:
                "a text message was not valid UTF-8; the connection closes"
            }
        }

        /// The close code RFC 6455 gives the refusal: 1009, 1002, or 1007 for text that is not UTF-8.
        var closeCode: WebSocketErrorCode {
            switch self {
            case .tooLarge: .messageTooLarge
            case .outOfOrder: .protocolError
            case .invalidUTF8: .dataInconsistentWithMessage
            }
        }
    }

    /// What a page sent next.
    enum Next {
        /// A whole message.
        case message(WebSocketMessage)
        /// Something the server stops reading at, and why.
        case refused(Refusal)
    }

    private var frames: WebSocketInboundStream.AsyncIterator
    private let maxSize: Int

    /// Reads `inbound`'s frames, refusing a message of more than `maxSize` bytes.
    init(_ inbound: WebSocketInboundStream, maxSize: Int) {
        frames = inbound.makeAsyncIterator()
        self.maxSize = maxSize
    }

    /// The next message, a refusal, or nil once the page has closed the connection.
    mutating func next() async throws -> Next? {
        guard var frame = try await frames.next() else { return nil }
        let opcode = frame.opcode
        guard opcode != .continuation else {
            return .refused(.outOfOrder("a continuation frame came with no message to continue"))
        }
        var data = frame.data
        while true {
            guard data.readableBytes <= maxSize else { return .refused(.tooLarge(maxSize: maxSize)) }
            if frame.fin { break }
            guard let following = try await frames.next() else { return nil }
            guard following.opcode == .continuation else {
                return .refused(.outOfOrder("a new message began before the last one's final frame"))
            }
            frame = following
            // The server's frames are at most ``WorldCupSocket/maxReadSize`` bytes, so this holds at
            // most twice `maxSize` before the check above refuses it.
            data.writeImmutableBuffer(following.data)
        }
        guard opcode == .text else { return .message(.binary(data)) }
        // `String(buffer:)` would replace bad bytes with U+FFFD; RFC 6455 (section 8.1) has the
        // connection fail instead.
        guard let text = String(validating: data.readableBytesView, as: UTF8.self) else { return .refused(.invalidUTF8) }
        return .message(.text(text))
    }
}

/// The request context of the WebSocket router: Hummingbird's basic one, plus the connection's
/// channel, where ``MaskedFrameCheck`` goes before the upgrade.
public struct WorldCupSocketContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The handler the router picked for the upgrade.
    public let webSocket: WebSocketHandlerReference<Self>
    /// The connection.
    public let channel: any Channel

    /// A context for a request on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        webSocket = WebSocketHandlerReference()
        channel = source.channel
    }
}
