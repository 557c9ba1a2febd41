import FetchedResultsChecking
@testable import OpenCoreData
import Testing

/// The chunked row list against a plain array: random batches of removals and insertions, large
/// enough to split and merge chunks and to empty the list, applied both one row at a time and as
/// one batch update.
@Suite struct RowListTests {
    /// A random batch for a list of `count` rows: ascending removal positions, then ascending
    /// insertion positions in the list the batch leaves.
    private func randomBatch(count: Int, using random: inout SplitMix64) -> (removals: [Int], insertions: [(position: Int, key: Int64)]) {
        let removalCount = count == 0 ? 0 : Int(random.next() % UInt64(min(count, 600) + 1))
        var removals = Set<Int>()
        while removals.count < removalCount { removals.insert(Int(random.next() % UInt64(count))) }
        let remaining = count - removalCount
        let insertionCount = Int(random.next() % 600)
        var positions = Set<Int>()
        while positions.count < insertionCount { positions.insert(Int(random.next() % UInt64(remaining + insertionCount))) }
        let insertions = positions.sorted().map { (position: $0, key: Int64(random.next() % 1_000_000_000)) }
        return (removals.sorted(), insertions)
    }

    private func expectSame(_ list: RowList, _ model: [Int64], _ context: String) {
        #expect(list.count == model.count, "\(context): count")
        #expect(Array(list) == model, "\(context): contents")
        // Positions go through the chunk starts, which the batch update works out once at the end.
        for position in stride(from: 0, to: model.count, by: max(1, model.count / 97)) {
            #expect(list[position] == model[position], "\(context): row \(position)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 0x5eed])
    func batchUpdatesMatchAnArrayAndRowByRowUpdates(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model = (0..<Int64(3000)).map { $0 * 7 }
        var batched = RowList(model)
        var stepwise = batched
        for round in 0..<60 {
            // Every tenth round empties the list, so that batches also start from nothing.
            let (removals, insertions) = round % 10 == 9
                ? (Array(0..<model.count), [])
                : randomBatch(count: model.count, using: &random)
            for position in removals.reversed() {
                model.remove(at: position)
                stepwise.remove(at: position)
            }
            for insertion in insertions {
                model.insert(insertion.key, at: insertion.position)
                stepwise.insert(insertion.key, at: insertion.position)
            }
            batched.update(removingAt: removals, inserting: insertions)
            expectSame(batched, model, "seed \(seed) round \(round), batched")
            expectSame(stepwise, model, "seed \(seed) round \(round), row by row")
        }
    }

    @Test func manyInsertionsIntoOneChunkSplitItAndKeepTheirOrder() {
        var list = RowList((0..<Int64(10)).map { $0 * 1000 })
        // 1,000 rows after the fifth: the chunk splits several times within one update.
        let insertions = (0..<1000).map { (position: 5 + $0, key: Int64(4001 + $0)) }
        list.update(removingAt: [], inserting: insertions)
        var model = (0..<Int64(10)).map { $0 * 1000 }
        model.insert(contentsOf: (0..<Int64(1000)).map { 4001 + $0 }, at: 5)
        expectSame(list, model, "split")
        #expect(list.chunks.count > 1)
        #expect(list.chunks.allSatisfy { $0.count < list.maximumChunkLength })
    }
}
