public import NIOCore

/// A message to pages, encoded as JSON once, in a buffer every page it goes to shares: a batch
/// for 500 pages is encoded once, and written 500 times from the same bytes.
///
/// ```swift
/// for await message in subscription.messages { print(message.text) }
/// ```
public struct EncodedMessage: Sendable {
    /// The JSON, as UTF-8.
    public let bytes: ByteBuffer

    /// The JSON of `message`.
    init(_ message: ServerMessage) throws {
        bytes = ByteBuffer(bytes: try WorldCupJSON.encode(message))
    }

    /// The JSON as text.
    public var text: String { String(buffer: bytes) }
}
