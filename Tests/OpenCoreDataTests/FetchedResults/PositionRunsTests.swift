import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// Row positions as runs: what a position search steps over when a batch takes out a block of
/// rows whose old keys it does not know.
@Suite struct PositionRunsTests {
    @Test func findsTheMaximalRunOfEachPosition() {
        var random = SplitMix64(seed: 0x5255_4E53)
        for round in 0..<200 {
            let positions = (0..<Int(random.next() % 60)).map { _ in Int(random.next() % 80) }
            let set = Set(positions)
            let runs = PositionRuns(sorted: positions.sorted())
            #expect(runs.isEmpty == set.isEmpty)
            for position in -1...81 {
                #expect(runs.contains(position) == set.contains(position), "round \(round), \(position)")
                guard set.contains(position) else {
                    #expect(runs.run(containing: position) == nil)
                    continue
                }
                var lower = position, upper = position + 1
                while set.contains(lower - 1) { lower -= 1 }
                while set.contains(upper) { upper += 1 }
                #expect(runs.run(containing: position) == lower..<upper, "round \(round), \(position) in \(positions.sorted())")
            }
        }
    }
}
