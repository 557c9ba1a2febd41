#if Postgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay from a loopback port of its own to another loopback port, which a test cuts off
/// for a while: every relayed connection is broken and new ones are refused until it is
/// restored, as a network failure between a server of the library and PostgreSQL would.
final class TCPProxy: @unchecked Sendable {
    let port: Int
    private let targetPort: Int
    private let listener: Int32
    // Guarded by `lock` (hence `@unchecked Sendable`).
    private let lock = NSLock()
    private var relayed: Set<Int32> = []
    private var isCut = false
    private var isStopped = false

    init(to targetPort: Int) throws {
        self.targetPort = targetPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listener >= 0, bound == 0, Glibc.listen(listener, 64) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the proxy cannot listen: errno \(errno)"])
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard port != 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "the proxy has no port: errno \(errno)"])
        }
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Breaks every relayed connection and refuses new ones until ``restore()``.
    func cutOff() {
        lock.withLock {
            isCut = true
            for socket in relayed { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    func restore() {
        lock.withLock { isCut = false }
    }

    func stop() {
        lock.withLock { isStopped = true }
        cutOff()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            if lock.withLock({ isStopped }) {
                if client >= 0 { close(client) }
                return
            }
            guard client >= 0 else { continue }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: targetPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            let accepted = lock.withLock { () -> Bool in
                guard !isCut, connected == 0 else { return false }
                relayed.formUnion([client, upstream])
                return true
            }
            guard accepted else {
                close(client)
                close(upstream)
                continue
            }
            let pair = RelayedPair(client: client, upstream: upstream) { [weak self] in
                self?.lock.withLock { self?.relayed.subtract([client, upstream]) }
            }
            Thread.detachNewThread { pair.relay(from: client, to: upstream) }
            Thread.detachNewThread { pair.relay(from: upstream, to: client) }
        }
    }
}

/// Two sockets relayed both ways, closed once both directions have ended (closing one while the
/// other direction's thread still reads it could hit a reused descriptor).
private final class RelayedPair: @unchecked Sendable {
    private let client: Int32
    private let upstream: Int32
    private let lock = NSLock()
    private var directionsLeft = 2
    private let onClose: @Sendable () -> Void

    init(client: Int32, upstream: Int32, onClose: @escaping @Sendable () -> Void) {
        self.client = client
        self.upstream = upstream
        self.onClose = onClose
    }

    func relay(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let sent = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { break copying }
                offset += sent
            }
        }
        // The other direction ends too: a relayed connection is whole or gone.
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        let last = lock.withLock { () -> Bool in
            directionsLeft -= 1
            return directionsLeft == 0
        }
        guard last else { return }
        onClose()
        close(client)
        close(upstream)
    }
}
#endif
