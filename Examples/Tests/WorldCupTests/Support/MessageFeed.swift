import Foundation
import WorldCupApp

/// Reads a subscription's messages as they come, so a test can wait for the next one.
actor MessageFeed {
    struct Timeout: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no message within \(seconds) s" }
    }

    private var received: [ServerMessage] = []

    /// Starts reading; the reading ends with the stream (when its subscription is cancelled).
    init(_ messages: AsyncStream<EncodedMessage>) {
        Task { [weak self] in
            for await encoded in messages { await self?.append(encoded.text) }
        }
    }

    /// Starts reading messages as JSON text, as a WebSocket brings them; the reading ends with
    /// the stream.
    init(texts: AsyncStream<String>) {
        Task { [weak self] in
            for await text in texts { await self?.append(text) }
        }
    }

    private func append(_ text: String) {
        guard let message = try? JSONDecoder().decode(ServerMessage.self, from: Data(text.utf8)) else { return }
        received.append(message)
    }

    /// The next message, waiting up to `seconds` for it: long, as the whole suite runs at once on
    /// two cores and a message can wait a while for a thread.
    func next(within seconds: Double = 120) async throws -> ServerMessage {
        let deadline = Date().addingTimeInterval(seconds)
        while received.isEmpty {
            guard Date() < deadline else { throw Timeout(seconds: seconds) }
            try await Task.sleep(for: .milliseconds(5))
        }
        return received.removeFirst()
    }

    /// The messages received so far and not yet taken.
    func drain() -> [ServerMessage] {
        defer { received = [] }
        return received
    }
}
