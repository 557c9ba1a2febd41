import NIOCore
import NIOWebSocket

/// Closes a WebSocket connection whose client sends a frame without a mask, with code 1002
/// (protocol error), as RFC 6455 (section 5.1) requires of a server.
///
/// SwiftNIO's frame decoder reads masked and unmasked frames alike, and the frames the WebSocket
/// handler passes on no longer say which they were; so the check sits in the channel pipeline,
/// right after the decoder. ``install(on:)`` puts it there when a connection is about to be
/// upgraded, before any frame can be read.
final class MaskedFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The close frame's reason.
    static let reason = "a client frame was not masked"

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        guard unwrapInboundIn(data).maskKey == nil else {
            context.fireChannelRead(data)
            return
        }
        // Nothing more is read from a client that broke the protocol: close at once, saying why.
        closing = true
        var payload = context.channel.allocator.buffer(capacity: 2 + Self.reason.utf8.count)
        payload.write(webSocketErrorCode: .protocolError)
        payload.writeString(Self.reason)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)), promise: written)
        written.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    /// Arranges for the check to follow the frame decoder once `channel` is upgraded.
    ///
    /// Call it while the upgrade is being decided (the router's `shouldUpgrade`): the decoder
    /// does not exist yet, so a placeholder goes to the end of the pipeline, where the upgrade
    /// then adds the decoder after it; on the first bytes it reads it puts the check after the
    /// decoder and leaves.
    static func install(on channel: any Channel) async throws {
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(Placeholder())
        }.get()
    }

    /// Stands in for the check until the decoder is in the pipeline.
    private final class Placeholder: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let pipeline = context.pipeline.syncOperations
            // Before the upgrade (or when it did not happen) this forwards whatever comes.
            guard let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self),
                  (try? pipeline.addHandler(MaskedFrameCheck(), position: .after(decoder.handler))) != nil else {
                context.fireChannelRead(data)
                return
            }
            context.fireChannelRead(data)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
