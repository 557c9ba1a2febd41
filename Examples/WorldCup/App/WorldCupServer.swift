public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import ServiceLifecycle
public import Logging
import NIOCore

/// The World Cup server: the HTTP routes and the WebSocket on one port.
///
/// ```swift
/// let scoreboard = try await Scoreboard.open(.file(storeURL))
/// let app = try WorldCupServer.application(scoreboard: scoreboard, host: "127.0.0.1", port: 8080)
/// try await app.runService()
/// ```
public enum WorldCupServer {
    /// An application serving `scoreboard`.
    ///
    /// - Parameters:
    ///   - router: The HTTP routes; by default ``WorldCupRoutes/router(for:)``. Pass one to add
    ///     routes of your own.
    ///   - host: The address to bind; loopback unless told otherwise.
    ///   - port: The port; 0 picks a free one.
    ///   - limits: The connections' timeouts and how many may be open at once.
    ///   - onServerRunning: Called once the server listens, with the port it listens on.
    /// - Throws: ``WorldCupError`` when a bundled file is missing.
    public static func application(
        scoreboard: Scoreboard,
        router: Router<BasicRequestContext>? = nil,
        host: String = "127.0.0.1",
        port: Int = 8080,
        limits: ConnectionLimits = ConnectionLimits(),
        logger: Logger = Logger(label: "worldcup"),
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) throws -> Application<RouterResponder<BasicRequestContext>> {
        Application(
            router: try router ?? WorldCupRoutes.router(for: scoreboard),
            server: server(webSocketResponder: WorldCupSocket.router(for: scoreboard).buildResponder(), limits: limits),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "worldcup",
                                                    availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    /// HTTP/1.1 with the WebSocket upgrade, each connection guarded by ``GuardedConnection``, idle
    /// kept-alive connections closed after the idle timeout.
    private static func server(webSocketResponder: some HTTPResponder<WorldCupSocketContext>, limits: ConnectionLimits) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedConnection(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: TimeAmount(limits.idleTimeout)), ws: WorldCupSocket.configuration)
                ),
                requestTimeout: TimeAmount(limits.requestTimeout)
            )
        }
    }
}

extension WorldCupServer {
    /// Runs a server on a free port until `body` returns, then shuts it down gracefully: for
    /// `--check` and the tests, which must not leave a server running.
    ///
    /// ```swift
    /// let table = try await WorldCupServer.withServer(scoreboard: scoreboard) { port in
    ///     try await fetchTable(from: "http://127.0.0.1:\(port)/api/teams")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - router: The HTTP routes, as for ``application(scoreboard:router:host:port:limits:logger:onServerRunning:)``.
    ///   - limits: The connections' timeouts and how many may be open at once.
    ///   - body: Given the port the server listens on.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or why the server could not start.
    public static func withServer<T: Sendable>(
        scoreboard: Scoreboard,
        router: Router<BasicRequestContext>? = nil,
        host: String = "127.0.0.1",
        limits: ConnectionLimits = ConnectionLimits(),
        logger: Logger = Logger(label: "worldcup"),
        _ body: @Sendable (_ port: Int) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try application(scoreboard: scoreboard, router: router, host: host, port: 0, limits: limits, logger: logger) { port in
            portContinuation.yield(port)
        }
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that cannot start ends the stream, so the wait below ends too.
                defer { portContinuation.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await tasks.waitForAll()
                throw ServerDidNotStart()
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            // Open pages' feeds end first, so their sockets close and the shutdown does not wait on them.
            scoreboard.closeSubscriptions()
            await services.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

/// The server stopped before it listened, without saying why.
struct ServerDidNotStart: Error, CustomStringConvertible {
    var description: String { "the server stopped before it listened" }
}
