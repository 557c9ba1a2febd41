import FetchedResultsChecking
@testable import OpenCoreData
import Testing

/// `UnmergedCommits` indexes commits by the rows they touch; a read must take back exactly what
/// a scan of every commit, oldest first, would: checked against that scan over random sequences
/// of commits joining and being merged.
struct UnmergedCommitsTests {
    @Test(arguments: 0..<20)
    func takesBackWhatAScanOfEveryCommitWould(seed: UInt64) throws {
        let entity = try #require(try Fixtures.model().entitiesByName["Team"])
        var generator = SplitMix64(seed: 0xC0FF_EE00 ^ seed)
        let ids = (1...12).map { ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: $0) }
        func row(_ id: ManagedObjectID, _ mark: Int) -> RowSnapshot {
            RowSnapshot(objectID: id, values: Array(repeating: .integer(Int64(mark)), count: entity.slots.count), version: Int64(mark))
        }
        var indexed = UnmergedCommits()
        var reference: [SavedChanges] = []
        for step in 0..<200 {
            if !reference.isEmpty, Int.random(in: 0..<3, using: &generator) == 0 {
                let merged = indexed.removeFirst()
                guard case .save(let saved, _)? = merged else {
                    Issue.record("step \(step): the oldest commit did not come out")
                    return
                }
                #expect(saved.storeGenerations == reference.removeFirst().storeGenerations)
            } else {
                var saved = SavedChanges()
                saved.storeGenerations = CommitGenerations(before: Int64(step), after: Int64(step + 1))
                for id in ids where Int.random(in: 0..<4, using: &generator) == 0 {
                    if Bool.random(using: &generator) {
                        saved.inserted.append(row(id, step))
                    } else {
                        saved.preImages[id] = row(id, step)
                    }
                }
                indexed.append(UnmergedCommit(saved))
                reference.append(saved)
            }
            #expect(indexed.isEmpty == reference.isEmpty)
            for id in ids {
                let now = Bool.random(using: &generator) ? row(id, -1) : nil
                let first = reference.first { saved in
                    saved.inserted.contains { $0.objectID == id } || saved.preImages[id] != nil
                }
                let expected: RowSnapshot? = first.map { saved in saved.preImages[id] } ?? now
                #expect(indexed.touch(id) == (first != nil), "step \(step), \(id)")
                let taken = indexed.rowBefore(id, now: now)
                #expect(taken?.version == expected?.version && taken?.values == expected?.values, "step \(step), \(id)")
            }
        }
    }
}
