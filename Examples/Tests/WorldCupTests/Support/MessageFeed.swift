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
            for await encoded in messages {
                guard let message = try? JSONDecoder().decode(ServerMessage.self, from: Data(encoded.text.utf8)) else { continue }
                await self?.append(message)
            }
        }
    }

    private func append(_ message: ServerMessage) { received.append(message) }

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
