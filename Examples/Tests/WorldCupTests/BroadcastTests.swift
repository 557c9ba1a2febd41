import ExampleSupport
import Foundation
import NIOCore
import Testing
import WorldCupApp

/// How a batch reaches the pages: encoded once, its bytes shared by every page, and never held up
/// by a page that stopped reading.
@Suite struct BroadcastTests {
    /// The address of a message's bytes: equal for two messages that share one buffer.
    private static func address(of message: EncodedMessage) -> Int {
        message.bytes.withUnsafeReadableBytes { Int(bitPattern: $0.baseAddress) }
    }

    @Test func aBatchIsEncodedOnceAndItsBytesSharedByEveryPage() async throws {
        let fixture = try await TestScoreboard()
        let subscriptions = await (0..<5).asyncMap { _ in await fixture.scoreboard.subscribe() }
        defer { for subscription in subscriptions { subscription.cancel() } }
        let tamboro = try #require(try await fixture.freshFetch().teams.first { $0.name == "Tamboro" })
        _ = try await fixture.scoreboard.addWin(to: tamboro.id)
        var addresses: Set<Int> = []
        for subscription in subscriptions {
            var messages = subscription.messages.makeAsyncIterator()
            _ = await messages.next()  // the page's own snapshot
            let batch = try #require(await messages.next())
            #expect(batch.text.hasSuffix(#""seq":1,"type":"batch"}"#), "\(batch.text)")
            addresses.insert(Self.address(of: batch))
        }
        #expect(addresses.count == 1, "the pages' batches sit in \(addresses.count) buffers")
    }

    @Test(arguments: [1, 4, 16])
    func aPageThatStopsReadingIsDroppedOnceItsQueueIsFullAndTheOthersGetEveryBatch(queue: Int) async throws {
        let fixture = try await TestScoreboard()
        let drops = Locked(0)
        // Never read: a tab that froze.
        let stalled = await fixture.scoreboard.subscribe(bufferLimit: queue, onOverflow: { drops.withLock { $0 += 1 } })
        defer { stalled.cancel() }
        let reader = await fixture.scoreboard.subscribe()
        defer { reader.cancel() }
        let feed = MessageFeed(reader.messages)
        guard case .snapshot(0, _) = try await feed.next() else {
            Issue.record("the reading page got no snapshot")
            return
        }
        let teams = try await fixture.freshFetch().teams
        let wins = queue + 8
        for index in 0..<wins {
            _ = try await fixture.scoreboard.addWin(to: teams[index % teams.count].id)
            // Each batch reaches the reading page, whatever the stalled one does.
            guard case .batch(index + 1, _) = try await feed.next() else {
                Issue.record("batch \(index + 1) did not reach the reading page")
                return
            }
        }
        #expect(drops.withLock { $0 } == 1, "the stalled page was dropped \(drops.withLock { $0 }) times")
        // The stalled page's feed holds what fit (its snapshot and the first batches), then ends.
        let counting = Task { () -> (held: Int, ended: Bool) in
            var held = 0
            for await _ in stalled.messages { held += 1 }
            return (held, !Task.isCancelled)
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(30))
            counting.cancel()
        }
        let (held, ended) = await counting.value
        timer.cancel()
        #expect(ended, "the stalled page's feed did not end")
        #expect(held == queue)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
