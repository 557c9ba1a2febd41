import Foundation
import Testing
import WorldCupApp

/// RFC 6455's rules for what a client sends, checked over a raw connection (a WebSocket client
/// would not break them): a frame without a mask closes the connection with 1002, a text
/// message that is not UTF-8 with 1007.
@Suite struct WebSocketFrameRuleTests {
    /// A connection upgraded to the page's WebSocket, its snapshot read.
    private static func upgradedConnection(port: Int) async throws -> RawConnection {
        let connection = try RawConnection(port: port)
        try connection.send("GET \(WorldCupSocket.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = await connection.receive(until: Array("\r\n\r\n".utf8), within: 10).text
        guard head.hasPrefix("HTTP/1.1 101") else { throw RawConnection.Failure(description: "no upgrade: \(head)") }
        return connection
    }

    /// A frame as a client sends it: masked with `mask`, or unmasked when nil.
    static func frame(opcode: UInt8, payload: [UInt8], mask: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else {
            bytes.append(maskBit | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $1 ^ mask[$0 % 4] }
    }

    /// The frames in what the server sent after the upgrade: opcode and payload (server frames
    /// are not masked).
    static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        var index = 0
        while index + 2 <= bytes.count {
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126, start + 2 <= bytes.count {
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127, start + 8 <= bytes.count {
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((bytes[index] & 0x0F, Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }

    /// The close frame's code and reason, after the frames before it.
    static func close(in bytes: [UInt8]) -> (code: Int, reason: String)? {
        guard let close = frames(in: bytes).last(where: { $0.opcode == 0x8 }), close.payload.count >= 2 else { return nil }
        return (Int(close.payload[0]) << 8 | Int(close.payload[1]), close.payload.dropFirst(2).map { $0 }.text)
    }

    static let message = Array(#"{"type": "snapshot"}"#.utf8)

    @Test(arguments: [(0x1, "text"), (0x2, "binary"), (0x9, "ping")] as [(UInt8, String)])
    func anUnmaskedClientFrameClosesTheConnectionWith1002(opcode: UInt8, kind: String) async throws {
        let fixture = try await TestScoreboard()
        try await WorldCupServer.withServer(scoreboard: fixture.scoreboard) { port in
            let connection = try await Self.upgradedConnection(port: port)
            try connection.send(Self.frame(opcode: opcode, payload: Self.message, mask: nil))
            let (bytes, closed) = await connection.receiveUntilClosed(within: 10)
            #expect(closed, "an unmasked \(kind) frame left the connection open")
            let close = Self.close(in: bytes)
            #expect(close?.code == 1002, "an unmasked \(kind) frame: \(String(describing: close))")
            #expect(close?.reason == "a client frame was not masked")
        }
    }

    @Test func aMaskedFrameIsServed() async throws {
        let fixture = try await TestScoreboard()
        try await WorldCupServer.withServer(scoreboard: fixture.scoreboard) { port in
            let connection = try await Self.upgradedConnection(port: port)
            try connection.send(Self.frame(opcode: 0x1, payload: Self.message, mask: [0x12, 0x34, 0x56, 0x78]))
            // The feed's snapshot, then the one asked for.
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(20)
            while Self.frames(in: bytes).count < 2, Date() < deadline {
                bytes += await connection.receiveUntilClosed(within: 0.2).bytes
            }
            let texts = Self.frames(in: bytes).filter { $0.opcode == 0x1 }.map { $0.payload.text }
            #expect(texts.count == 2 && texts.allSatisfy { $0.contains(#""type":"snapshot""#) }, "\(texts)")
        }
    }

    /// Text that is not UTF-8, by the kinds of mistake RFC 3629 rules out.
    static let notUTF8: [(label: String, bytes: [UInt8])] = [
        ("a lone continuation byte", [0x7B, 0x80, 0x7D]),
        ("a truncated sequence", [0x7B, 0xE2, 0x82, 0x7D]),
        ("an overlong encoding of /", [0xC0, 0xAF]),
        ("a UTF-16 surrogate", [0xED, 0xA0, 0x80]),
        ("a code point past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("the byte FF", [0x22, 0xFF, 0x22]),
    ]

    @Test(arguments: notUTF8)
    func aTextMessageThatIsNotUTF8ClosesTheConnectionWith1007(label: String, bytes: [UInt8]) async throws {
        let fixture = try await TestScoreboard()
        try await WorldCupServer.withServer(scoreboard: fixture.scoreboard) { port in
            let connection = try await Self.upgradedConnection(port: port)
            try connection.send(Self.frame(opcode: 0x1, payload: bytes, mask: [0xA1, 0xB2, 0xC3, 0xD4]))
            let (received, closed) = await connection.receiveUntilClosed(within: 10)
            #expect(closed, "\(label): the connection stayed open")
            let close = Self.close(in: received)
            #expect(close?.code == 1007, "\(label): \(String(describing: close))")
            #expect(close?.reason == "a text message was not valid UTF-8; the connection closes", "\(label)")
        }
    }
}
