import Foundation
import Testing
import WorldCupApp

/// What the server does with connections no browser would make: requests it cannot parse,
/// clients that connect and go quiet, and more connections than it has file descriptors.
@Suite struct ConnectionGuardTests {
    /// Short timeouts, so that the tests wait a little; the defaults are 30 s.
    static let limits = ConnectionLimits(requestTimeout: .milliseconds(500), idleTimeout: .milliseconds(500))

    /// A request the server cannot parse, and the status lines it answers with before closing.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let label: String
        let bytes: [UInt8]
        var statuses = ["HTTP/1.1 400 Bad Request"]
        var testDescription: String { label }

        init(_ label: String, _ text: String, statuses: [String]? = nil) {
            self.label = label
            bytes = Array(text.utf8)
            if let statuses { self.statuses = statuses }
        }

        init(_ label: String, bytes: [UInt8]) {
            self.label = label
            self.bytes = bytes
        }
    }

    static let malformed: [Malformed] = [
        .init("not HTTP", "hello there\r\n\r\n"),
        .init("no version", "GET /\r\n\r\n"),
        .init("an unknown version", "GET / HTTP/7.1\r\nHost: a\r\n\r\n"),
        .init("a space in the method", "GE T / HTTP/1.1\r\nHost: a\r\n\r\n"),
        .init("a header without a colon", "GET / HTTP/1.1\r\nHost a\r\n\r\n"),
        .init("a control character in a header", "GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n"),
        .init("a bad Content-Length", "POST /api/teams HTTP/1.1\r\nHost: a\r\nContent-Length: ten\r\n\r\n"),
        .init("two Content-Lengths", "POST /api/teams HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
        .init("binary", bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 0x0D, 0x0A, 0x0D, 0x0A]),
        // Hummingbird's own handling of a later request closes the connection without a 400.
        .init("a bad request after a good one on the same connection",
              "GET /api/teams HTTP/1.1\r\nHost: a\r\n\r\nhello there\r\n\r\n", statuses: ["HTTP/1.1 200 OK"]),
    ]

    @Test(arguments: malformed)
    func aRequestThatCannotBeParsedGets400AndTheConnectionCloses(_ request: Malformed) async throws {
        let fixture = try await TestScoreboard()
        // Timeouts far longer than the wait: the connection closes because of the request.
        let limits = ConnectionLimits(requestTimeout: .seconds(120), idleTimeout: .seconds(120))
        try await WorldCupServer.withServer(scoreboard: fixture.scoreboard, limits: limits) { port in
            let connection = try RawConnection(port: port)
            try connection.send(request.bytes)
            let (bytes, closed) = await connection.receiveUntilClosed(within: 30)
            #expect(closed, "the connection stayed open; the server sent \(bytes.text.debugDescription)")
            let statuses = bytes.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
            #expect(statuses == request.statuses, "\(bytes.text.debugDescription)")
            // The server still serves.
            let after = try RawConnection(port: port)
            try after.send("GET /api/teams HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            #expect(await after.receiveUntilClosed(within: 10).bytes.text.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    /// How a client can go quiet, and what the server says before it closes the connection.
    static let quietClients: [(label: String, sends: String, answer: String?)] = [
        ("connects and sends nothing", "", "HTTP/1.1 408 Request Timeout"),
        ("sends half a request head", "GET /api/teams HTTP/1.1\r\nHost: a\r\n", "HTTP/1.1 408 Request Timeout"),
        ("sends one byte", "G", "HTTP/1.1 408 Request Timeout"),
        ("goes quiet after a request it kept alive", "GET /api/teams HTTP/1.1\r\nHost: a\r\n\r\n", "HTTP/1.1 200 OK"),
    ]

    @Test(arguments: quietClients)
    func aQuietConnectionIsClosedAfterTheTimeout(label: String, sends: String, answer: String?) async throws {
        let fixture = try await TestScoreboard()
        try await WorldCupServer.withServer(scoreboard: fixture.scoreboard, limits: Self.limits) { port in
            let connection = try RawConnection(port: port)
            if !sends.isEmpty { try connection.send(sends) }
            let start = ContinuousClock.now
            let (bytes, closed) = await connection.receiveUntilClosed(within: 20)
            let waited = ContinuousClock.now - start
            #expect(closed, "\(label): the connection stayed open")
            #expect(waited >= .milliseconds(400), "\(label): closed after \(waited), before the timeout")
            if let answer { #expect(bytes.text.hasPrefix(answer), "\(label): \(bytes.text.debugDescription)") }
        }
    }

    @Test func atItsDescriptorLimitTheServerStaysIdleAndAnswersOnceConnectionsClose() async throws {
        let fixture = try await TestScoreboard()
        let server = try ServerProcess(store: fixture.directory.appendingPathComponent("Limited.sqlite"),
                                       arguments: ["--timeout", "2"], fileLimit: 256)
        defer { server.stop() }
        let port = try await server.waitUntilListening()
        // More connections than the server has descriptors, all quiet.
        var held: [RawConnection] = []
        for _ in 0..<300 { held.append(try RawConnection(port: port)) }
        try await Task.sleep(for: .milliseconds(300))
        // Saturated, the server waits: it neither spins nor fails.
        let before = try server.cpuTime()
        try await Task.sleep(for: .seconds(1))
        let busy = try server.cpuTime() - before
        #expect(busy < .milliseconds(300), "the server used \(busy) of CPU in 1 s while saturated")
        // A new client is answered once the quiet ones have timed out, not left waiting.
        let client = try RawConnection(port: port)
        try client.send("GET /api/teams HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let (bytes, _) = await client.receiveUntilClosed(within: 30)
        #expect(bytes.text.hasPrefix("HTTP/1.1 200 OK"), "\(bytes.text.prefix(200).debugDescription)")
        #expect(server.process.isRunning, "the server stopped: \(server.standardError.suffix(2000))")
        withExtendedLifetime(held) {}
    }
}
