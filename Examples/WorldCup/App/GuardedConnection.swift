import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The server's connections as `Base` (HTTP/1.1 with the WebSocket upgrade) serves them, with
/// what a server facing the open network needs and Hummingbird's upgrade channel lacks until a
/// connection's first request head has arrived:
///
/// - a request that cannot be parsed gets `400 Bad Request` and the connection closes (left to
///   itself, the upgrade channel logs the parse error and leaves the socket open for ever);
/// - a connection that sends no complete request head within the request timeout gets
///   `408 Request Timeout` and closes (nothing closed it before);
/// - whatever ends a connection's handling, the connection is closed.
///
/// After the first head, Hummingbird's own handling takes over: a parse error in a later request
/// is answered with 400, and the HTTP channel's idle timeout closes an idle kept-alive connection.
struct GuardedConnection<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let requestTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(FirstRequestGuard(timeout: requestTimeout, logger: logger), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
        // A connection whose first request failed before Hummingbird took it over is still open.
        try? await value.channel.close()
    }
}

/// Watches a connection until its first request head: answers a parse error with 400 and a
/// missing head with 408, closing the connection either way, then leaves the pipeline.
///
/// It sits right after the HTTP request decoder, so that it sees the decoder's errors before the
/// upgrade handler does, and the head as soon as it is parsed.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    private var answered = false

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
        context.fireChannelRead(data)
        if isHead {
            // Hummingbird's handling has the connection from here on.
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // Not passed on: the upgrade handler would only log it, and leave the connection open.
        logger.debug("closing a connection whose request could not be parsed", metadata: ["error": "\(error)"])
        answer(context, status: .badRequest)
    }

    private func startClock(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.logger.debug("closing a connection that sent no request within the timeout")
            handler.answer(context, status: .requestTimeout)
        }
    }

    /// Sends an empty response of `status`, then closes the connection.
    private func answer(_ context: ChannelHandlerContext, status: HTTPResponseStatus) {
        guard !answered else { return }
        answered = true
        deadline?.cancel()
        let head = HTTPResponseHead(version: .http1_1, status: status,
                                    headers: HTTPHeaders([("Connection", "close"), ("Content-Length", "0")]))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }
}
