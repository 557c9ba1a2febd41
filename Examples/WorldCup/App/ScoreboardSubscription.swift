import Foundation

/// One page's feed: the JSON of a snapshot, then of every batch, plus the replies to the page's
/// own requests. Cancel it when the page goes.
///
/// ```swift
/// let subscription = await scoreboard.subscribe(onOverflow: { channel.close(promise: nil) })
/// for await message in subscription.messages { try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: message.bytes))) }
/// ```
public final class ScoreboardSubscription: Sendable {
    /// The messages, in order; each is one ``ServerMessage`` as JSON, whose bytes a batch's
    /// subscribers share.
    public let messages: AsyncStream<EncodedMessage>
    private let id = UUID()
    private let continuation: AsyncStream<EncodedMessage>.Continuation
    private let scoreboard: Scoreboard
    private let onOverflow: @Sendable () -> Void

    init(scoreboard: Scoreboard, bufferLimit: Int, onOverflow: @escaping @Sendable () -> Void) {
        self.scoreboard = scoreboard
        // A page that falls this far behind is dropped (its connection closed; the page
        // reconnects and starts again from a snapshot), rather than the server holding
        // everything for it or the others waiting on it.
        (messages, continuation) = AsyncStream.makeStream(of: EncodedMessage.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        continuation.onTermination = { [id, broadcaster = scoreboard.broadcaster] _ in broadcaster.remove(id) }
        self.onOverflow = onOverflow
    }

    /// Starts the feed with a snapshot, on the view context's queue.
    func start() async {
        let scoreboard = scoreboard
        let subscriber = ScoreboardBroadcaster.Subscriber(continuation: continuation) { [continuation, onOverflow] in
            continuation.finish()
            onOverflow()
        }
        await scoreboard.container.viewContext.perform { [id] in
            scoreboard.broadcaster.add(id, subscriber, snapshot: Table(scoreboard.controller))
        }
    }

    /// Sends the whole table again, between the same batches as the table it shows.
    public func requestSnapshot() async {
        let scoreboard = scoreboard
        await scoreboard.container.viewContext.perform { [id] in
            scoreboard.broadcaster.resend(to: id, snapshot: Table(scoreboard.controller))
        }
    }

    /// Sends a message to this page only: a reply to one of its requests.
    public func reply(_ message: ServerMessage) {
        guard let encoded = try? EncodedMessage(message) else { return }
        if case .dropped = continuation.yield(encoded) {
            continuation.finish()
            onOverflow()
        }
    }

    /// Ends the feed.
    public func cancel() {
        continuation.finish()
    }
}

extension Scoreboard {
    /// A new feed for a page: a snapshot of the table now, then every batch after it.
    ///
    /// - Parameters:
    ///   - bufferLimit: How many messages may wait for a page. When one more comes, the page has
    ///     stopped keeping up: its feed ends, and `onOverflow` is called (once).
    ///   - onOverflow: What to do with a page that fell behind, such as closing its connection
    ///     (a page that reconnects starts again from a snapshot). Called without waiting for the
    ///     page, on the thread that handed out the message.
    public func subscribe(bufferLimit: Int = 256, onOverflow: @escaping @Sendable () -> Void = {}) async -> ScoreboardSubscription {
        let subscription = ScoreboardSubscription(scoreboard: self, bufferLimit: bufferLimit, onOverflow: onOverflow)
        await subscription.start()
        return subscription
    }

    /// Ends every feed, so the pages' connections can close.
    public func closeSubscriptions() {
        broadcaster.finishAll()
    }
}
