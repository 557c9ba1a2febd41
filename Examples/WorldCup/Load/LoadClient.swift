import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import WorldCupApp
#if canImport(Glibc)
import Glibc
#endif

/// Seconds since the run began, from a monotonic clock.
struct LoadClock: Sendable {
    private let origin = ContinuousClock.now

    var now: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// One click: when it was sent, and the batch that showed it.
struct Click: Sendable {
    var sent: Double
    var seq: Int?
}

/// A page: follows the feed and notes when each batch arrives, reading only its number, as
/// cheaply as it can, so that 500 of them leave the machine to the server.
final class PageFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived: [Int: Double] = [:]
    private var open = false
    private var stopped = false
    private var closer: (@Sendable () async -> Void)?

    /// When each batch arrived, by sequence number.
    var arrivals: [Int: Double] { lock.withLock { arrived } }

    func follow(url: String, clock: LoadClock, logger: Logger) async throws {
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) { inbound, outbound, _ in
            self.lock.withLock {
                self.open = true
                self.closer = { try? await outbound.close(.normalClosure, reason: nil) }
            }
            if self.lock.withLock({ self.stopped }) { return }
            for try await frame in inbound {
                let now = clock.now
                guard let seq = Self.batchNumber(in: frame.data) else { continue }
                self.lock.withLock { self.arrived[seq] = now }
            }
        }
    }

    func waitUntilOpen() async {
        while !lock.withLock({ open }) { try? await Task.sleep(for: .milliseconds(10)) }
    }

    func stop() {
        let closer = lock.withLock {
            stopped = true
            return self.closer
        }
        if let closer { Task { await closer() } }
    }

    /// The `seq` of a batch message, found without decoding the JSON (its keys are sorted, so
    /// `seq` and `type` come last: `…,"seq":12,"type":"batch"}`).
    static func batchNumber(in buffer: ByteBuffer) -> Int? {
        let bytes = buffer.readableBytesView
        let tail = Array(bytes.suffix(40))
        let text = String(decoding: tail, as: UTF8.self)
        guard text.hasSuffix(#""type":"batch"}"#), let range = text.range(of: #""seq":"#) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The teams, from a snapshot read on a connection of its own.
    static func teams(url: String, logger: Logger) async throws -> [TeamRow] {
        let found = LockedTeams()
        try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
            for try await frame in inbound {
                if case .snapshot(_, let table) = try JSONDecoder().decode(ServerMessage.self, from: Data(buffer: frame.data)) {
                    found.set(table.sections.flatMap(\.teams))
                    break
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return found.teams
    }
}

private final class LockedTeams: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [TeamRow] = []
    var teams: [TeamRow] { lock.withLock { value } }
    func set(_ teams: [TeamRow]) { lock.withLock { value = teams } }
}

/// Clicks one team as fast as the server acknowledges, and finds each click's batch: the one
/// that shows the team with the wins the click made (nobody else clicks this team).
struct Clicker: Sendable {
    let team: TeamRow
    let clock: LoadClock

    func run(url: String, until deadline: Double, logger: Logger) async throws -> [Click] {
        let record = ClickRecord(firstWins: team.wins)
        let message = #"{"type":"win","team":"\#(team.id)"}"#
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) { inbound, outbound, _ in
            var acks = inbound.makeAsyncIterator()
            while clock.now < deadline {
                record.sent(at: clock.now)
                try await outbound.write(.text(message))
                // Read until this click's ack, noting the batches that show this team.
                var acknowledged = false
                while !acknowledged, let frame = try await acks.next() {
                    let now = clock.now
                    switch try JSONDecoder().decode(ServerMessage.self, from: Data(buffer: frame.data)) {
                    case .ack:
                        acknowledged = true
                    case .batch(let seq, let batch):
                        for row in batch.rows where row.id == team.id { record.shown(wins: row.team?.wins, seq: seq, at: now) }
                    case .error(let reason):
                        throw LoadError(description: "a click was refused: \(reason)")
                    case .snapshot:
                        break
                    }
                }
            }
            // The last clicks' batches.
            let end = clock.now + 2
            while clock.now < end, record.waiting, let frame = try await acks.next() {
                if case .batch(let seq, let batch) = try JSONDecoder().decode(ServerMessage.self, from: Data(buffer: frame.data)) {
                    for row in batch.rows where row.id == team.id { record.shown(wins: row.team?.wins, seq: seq, at: clock.now) }
                }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return record.clicks
    }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
}

/// A clicker's clicks; the n-th click made the team's wins `firstWins + n`.
private final class ClickRecord: @unchecked Sendable {
    private let lock = NSLock()
    private let firstWins: Int
    private var all: [Click] = []

    init(firstWins: Int) { self.firstWins = firstWins }

    var clicks: [Click] { lock.withLock { all } }
    var waiting: Bool { lock.withLock { all.last?.seq == nil } }

    func sent(at time: Double) { lock.withLock { all.append(Click(sent: time)) } }

    func shown(wins: Int?, seq: Int, at time: Double) {
        guard let wins else { return }
        lock.withLock {
            let index = wins - firstWins - 1
            if all.indices.contains(index), all[index].seq == nil { all[index].seq = seq }
        }
    }
}

/// A page whose tab froze: it asks for the upgrade, then never reads, with a small receive
/// buffer so that the server's writes to it back up at once.
final class StalledPage {
    private let socket: Int32

    init(host: String, port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw LoadError(description: "a stalled page could not connect: \(String(cString: strerror(errno)))") }
        let request = "GET \(WorldCupSocket.path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(socket) }
}
