import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long the server waits on a connection, and how many it keeps open at once.
///
/// A connection that sends no complete request head within ``requestTimeout`` gets
/// `408 Request Timeout` and is closed, as is a kept-alive connection idle for ``idleTimeout``
/// between requests, so that clients that connect and go quiet cannot hold the server's file
/// descriptors for ever. Pages' WebSocket connections stay open while their pages answer the
/// server's pings (every 30 s).
///
/// ``maxConnections`` keeps the server under its descriptor limit: at the limit it stops
/// accepting, and further clients wait in the kernel's queue until a connection closes, where
/// a server past its limit would fail every `accept`.
///
/// ```swift
/// let limits = ConnectionLimits(requestTimeout: .seconds(10), idleTimeout: .seconds(10))
/// ```
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a new connection has to send its first request's head.
    public var requestTimeout: Duration
    /// How long a connection may stay idle between requests.
    public var idleTimeout: Duration
    /// The most connections open at once.
    public var maxConnections: Int

    /// Limits with these timeouts, and as many connections as ``defaultMaxConnections()`` allows.
    public init(requestTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(30),
                maxConnections: Int = ConnectionLimits.defaultMaxConnections()) {
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    /// Descriptors kept for everything but connections: the listening socket, the store's
    /// files, the standard streams, the event loops' own.
    public static let reservedDescriptors = 64

    /// The process's open-file limit (`ulimit -n`) less ``reservedDescriptors``, at least 1.
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard status == 0, limit.rlim_cur < rlim_t(Int32.max) else { return 4096 }
        return max(1, Int(clamping: limit.rlim_cur) - reservedDescriptors)
    }
}
