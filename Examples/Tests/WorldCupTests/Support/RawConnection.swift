import Foundation
#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

/// A TCP connection to the server on loopback, written and read byte for byte, for requests no
/// HTTP or WebSocket client would send.
///
/// Reads wait on a thread of their own, not on the tasks' threads, which an in-process server
/// needs to answer.
final class RawConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let socket: Int32

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        socket = makeSocket(AF_INET, streamSocket, 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            let message = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "connect to port \(port): \(message)")
        }
    }

    deinit { close(socket) }

    /// Sends `bytes`, all of them.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { sendBytes(socket, $0.baseAddress, $0.count, noSignal) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// What the server sends until it closes the connection, or until `seconds` have passed.
    ///
    /// - Returns: The bytes, and whether the server closed the connection (false: the time ran out).
    func receiveUntilClosed(within seconds: Double) async -> (bytes: [UInt8], closed: Bool) {
        await Self.offThePool { self.blockingReceiveUntilClosed(within: seconds) }
    }

    /// Reads until `bytes` end with `suffix`, or `seconds` pass; returns what came.
    func receive(until suffix: [UInt8], within seconds: Double) async -> [UInt8] {
        await Self.offThePool { self.blockingReceive(until: suffix, within: seconds) }
    }

    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    private func blockingReceiveUntilClosed(within seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (bytes, false) }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, left * 1000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (bytes, true) }
            bytes += buffer[..<count]
        }
    }

    private func blockingReceive(until suffix: [UInt8], within seconds: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while !bytes.ends(with: suffix), deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            var byte: UInt8 = 0
            guard recv(socket, &byte, 1, 0) == 1 else { break }
            bytes.append(byte)
        }
        return bytes
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }

    /// The bytes as text, for messages and for matching an HTTP response.
    var text: String { String(decoding: self, as: UTF8.self) }
}

// The C functions, under names the class's own members do not hide.
private func makeSocket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { socket(domain, type, proto) }
private func sendBytes(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { send(socket, bytes, count, flags) }
