import ExampleSupport
import Foundation
import HummingbirdWSClient
import Logging
import Testing
import WorldCupApp

extension MessageFeed {
    /// Opens the page's WebSocket on the server listening on `port` (a server process, say), as
    /// a page in a browser would, runs `body` with a feed of its messages, and closes the
    /// connection when `body` returns.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or why the connection failed.
    static func following<T: Sendable>(port: Int, _ body: @escaping @Sendable (MessageFeed) async throws -> T) async throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let url = "ws://127.0.0.1:\(port)\(WorldCupSocket.path)"
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: Logger(label: "worldcup-tests")) {
            inbound, outbound, _ in
            let (texts, continuation) = AsyncStream.makeStream(of: String.self)
            async let reading: Void = {
                defer { continuation.finish() }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { continuation.yield(text) }
                }
            }()
            let result: Result<T, any Error>
            do {
                result = .success(try await body(MessageFeed(texts: texts)))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            try await outbound.close(.normalClosure, reason: nil)
            try await reading
        }
        let result = try #require(outcome.withLock { $0 }, "the WebSocket to port \(port) closed before the test was done with it")
        return try result.get()
    }
}
