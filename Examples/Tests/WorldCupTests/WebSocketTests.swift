import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import HummingbirdWSTesting
import Testing
import WorldCupApp

/// The page's WebSocket, through a real connection to a live server.
@Suite struct WebSocketTests {
    /// Reads a connection's messages as ``ServerMessage``s.
    struct Reader {
        var iterator: WebSocketInboundMessageStream.AsyncIterator

        init(_ inbound: WebSocketInboundStream) {
            iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        }

        mutating func next() async throws -> ServerMessage {
            let message = try await iterator.next()
            guard case .text(let text) = try #require(message, "the connection closed") else {
                throw WorldCupError(.malformedRequest, "the server sent a binary frame")
            }
            return try JSONDecoder().decode(ServerMessage.self, from: Data(text.utf8))
        }
    }

    @Test func aPageGetsTheTableThenBatchesAndBadMessagesGetErrorFrames() async throws {
        let fixture = try await TestScoreboard()
        let fresh = try await fixture.freshFetch()
        let tamboro = try #require(fresh.teams.first { $0.name == "Tamboro" })
        let app = try WorldCupServer.application(scoreboard: fixture.scoreboard, port: 0)
        _ = try await app.test(.live) { client in
            try await client.ws(WorldCupSocket.path) { inbound, outbound, _ in
                var reader = Reader(inbound)
                #expect(try await reader.next() == .snapshot(seq: 0, table: fresh))

                let refusals: [(WebSocketOutboundWriter.OutboundFrame, String)] = [
                    (.text("{not json"), "the request is not valid JSON"),
                    (.text(#"{"type": "dance"}"#), #"unknown message type "dance"; expected win, add or snapshot"#),
                    (.text(#"{"team": "p1"}"#), #"the JSON has no "type" field"#),
                    (.text(#"{"type": "win", "team": "p999"}"#), #"no team has the ID "p999""#),
                    (.text(#"{"type": "add", "name": " ", "zone": "Asia"}"#), "the team's name is empty"),
                    (.binary(ByteBuffer(string: "{}")), "send JSON messages as text frames"),
                    (.text("null"), "expected a JSON object, not null"),
                    (.text(#"["win", "p1"]"#), "expected a JSON object, not an array"),
                    (.text("7"), "expected a JSON object, not a number"),
                    (.text(#"{"type": "win", "team": null}"#), #""team" should be a string, not null"#),
                    (.text(#"{"type": "add", "name": "\#(String(repeating: "é", count: 61))", "zone": "Asia"}"#),
                     "the team's name has 61 characters; at most 60 are allowed"),
                    (.text(#"{"type": "add", "name": "\#(String(repeating: "x", count: 5000))", "zone": "Asia"}"#),
                     "the message has 5043 bytes; at most 4096 are read"),
                    // One frame as large as the server reads (browsers send a message as one frame).
                    (.text(String(repeating: " ", count: WorldCupSocket.maxReadSize)),
                     "the message has \(WorldCupSocket.maxReadSize) bytes; at most 4096 are read"),
                ]
                for (frame, reason) in refusals {
                    try await outbound.write(frame)
                    #expect(try await reader.next() == .error(reason: reason))
                }

                // Still open: a win is acknowledged and batched.
                try await outbound.write(.text(#"{"type": "win", "team": "\#(tamboro.id)"}"#))
                let replies = [try await reader.next(), try await reader.next()]
                let won = TeamRow(id: tamboro.id, name: "Tamboro", wins: 2)
                #expect(replies.contains(.ack(request: "win", team: won)))
                let batch = try #require(replies.compactMap { reply -> ChangeBatch? in
                    if case .batch(1, let batch) = reply { batch } else { nil }
                }.first)
                #expect(batch.rows == [.init(change: .move, id: tamboro.id, from: RowPosition(section: 0, row: 2),
                                             to: RowPosition(section: 0, row: 1), team: won)])
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    /// Opens a connection, sends what `send` writes after the snapshot, expects error frames with
    /// `reasons` and then the end of the connection, and returns the server's close frame.
    private func closedConnection(
        saying reasons: [String],
        after send: @escaping @Sendable (WebSocketOutboundWriter) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        let fixture = try await TestScoreboard()
        let app = try WorldCupServer.application(scoreboard: fixture.scoreboard, port: 0)
        return try await app.test(.live) { client in
            try await client.ws(WorldCupSocket.path) { inbound, outbound, _ in
                var reader = Reader(inbound)
                guard case .snapshot = try await reader.next() else {
                    Issue.record("the page got no snapshot")
                    return
                }
                try await send(outbound)
                for reason in reasons {
                    #expect(try await reader.next() == .error(reason: reason))
                }
                #expect(try await reader.iterator.next() == nil, "the connection stayed open")
            }
        }
    }

    @Test func aMessageLongerThanTheServerReadsGetsItsReasonThenTheConnectionCloses() async throws {
        let limit = WorldCupSocket.maxReadSize
        let reason = "the message has more than \(limit) bytes, the most the server reads; the connection closes"
        let close = try await closedConnection(saying: ["the message has \(limit) bytes; at most 4096 are read", reason]) { outbound in
            // Both in frames of the client's 16 KiB: the first is as long as the server reads.
            try await outbound.writeTextMessage(String(repeating: " ", count: limit))
            try await outbound.writeTextMessage(String(repeating: " ", count: limit + 1))
        }
        #expect(close?.closeCode == .messageTooLarge)
        #expect(close?.reason == reason)
    }

    @Test func aContinuationFrameWithNoMessageToContinueClosesTheConnectionSayingSo() async throws {
        let reason = "a continuation frame came with no message to continue"
        let close = try await closedConnection(saying: [reason]) { outbound in
            try await outbound.write(.custom(.init(fin: true, opcode: .continuation, data: ByteBuffer(string: "{}"))))
        }
        #expect(close?.closeCode == .protocolError)
        #expect(close?.reason == reason)
    }

    @Test func aMessageBegunInsideAnotherClosesTheConnectionSayingSo() async throws {
        let reason = "a new message began before the last one's final frame"
        let close = try await closedConnection(saying: [reason]) { outbound in
            try await outbound.write(.custom(.init(fin: false, opcode: .text, data: ByteBuffer(string: "{"))))
            try await outbound.write(.text(#"{"type": "snapshot"}"#))
        }
        #expect(close?.closeCode == .protocolError)
        #expect(close?.reason == reason)
    }

    @Test func twoPagesGetTheSameBatches() async throws {
        let fixture = try await TestScoreboard()
        let app = try WorldCupServer.application(scoreboard: fixture.scoreboard, port: 0)
        _ = try await app.test(.live) { client in
            try await client.ws(WorldCupSocket.path) { firstInbound, firstOutbound, _ in
                var first = Reader(firstInbound)
                guard case .snapshot(0, _) = try await first.next() else {
                    Issue.record("the first page got no snapshot")
                    return
                }
                // The second page adds a team in a new zone; both see the same batch.
                let secondSaw = try await client.ws(WorldCupSocket.path) { inbound, outbound, _ in
                    var second = Reader(inbound)
                    _ = try await second.next()
                    try await outbound.write(.text(#"{"type": "add", "name": "Brumeholm", "zone": "Islands"}"#))
                    let replies = [try await second.next(), try await second.next()]
                    #expect(replies.contains { if case .ack("add", let team) = $0 { team.name == "Brumeholm" } else { false } })
                    #expect(replies.contains { if case .batch(1, _) = $0 { true } else { false } })
                    try await outbound.close(.normalClosure, reason: nil)
                }
                #expect(secondSaw?.closeCode == .normalClosure)
                guard case .batch(1, let batch) = try await first.next() else {
                    Issue.record("the first page got no batch")
                    return
                }
                #expect(batch.sections.map(\.name) == ["Islands"])
                #expect(batch.indexTitles == ["A", "E", "I", "N", "O", "S"])
                try await firstOutbound.close(.normalClosure, reason: nil)
            }
        }
    }
}
