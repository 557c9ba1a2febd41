import Foundation

/// One page's feed: the JSON text of a snapshot, then of every batch, plus the replies to the
/// page's own requests. Cancel it when the page goes.
///
/// ```swift
/// let subscription = await scoreboard.subscribe()
/// for await text in subscription.messages { try await outbound.write(.text(text)) }
/// ```
public final class ScoreboardSubscription: Sendable {
    /// The messages, in order; each is one ``ServerMessage`` as JSON.
    public let messages: AsyncStream<String>
    private let id = UUID()
    private let continuation: AsyncStream<String>.Continuation
    private let scoreboard: Scoreboard

    init(scoreboard: Scoreboard, bufferLimit: Int) {
        self.scoreboard = scoreboard
        // A page that falls this far behind loses the oldest messages, sees a gap in the
        // sequence numbers and asks for a snapshot, rather than the server holding everything.
        (messages, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        continuation.onTermination = { [id, broadcaster = scoreboard.broadcaster] _ in broadcaster.remove(id) }
    }

    /// Starts the feed with a snapshot, on the view context's queue.
    func start() async {
        let scoreboard = scoreboard
        await scoreboard.container.viewContext.perform { [id, continuation] in
            scoreboard.broadcaster.add(id, continuation, snapshot: Table(scoreboard.controller))
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
        guard let text = try? WorldCupJSON.text(message) else { return }
        continuation.yield(text)
    }

    /// Ends the feed.
    public func cancel() {
        continuation.finish()
    }
}

extension Scoreboard {
    /// A new feed for a page: a snapshot of the table now, then every batch after it.
    ///
    /// - Parameter bufferLimit: How many messages may wait for a slow page before the oldest are
    ///   dropped (the page then sees a gap and asks for a snapshot).
    public func subscribe(bufferLimit: Int = 256) async -> ScoreboardSubscription {
        let subscription = ScoreboardSubscription(scoreboard: self, bufferLimit: bufferLimit)
        await subscription.start()
        return subscription
    }

    /// Ends every feed, so the pages' connections can close.
    public func closeSubscriptions() {
        broadcaster.finishAll()
    }
}
