import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// The context's undo manager: random groups of changes (inserts, deletes with their delete
/// rules, attributes, to-ones, to-manys and ordered to-manys), then every group undone and redone
/// in turn, each step compared with what the context showed at that point; undo across a save;
/// merges and rollbacks are not undoable.
@Suite struct UndoTests {
    typealias Playlist = OrderedFixtures.Playlist
    typealias Song = OrderedFixtures.Song

    @Test(arguments: StoreKind.allCases, [UInt64(11), 12, 13])
    func undoAndRedoWalkThroughEveryGroup(kind: StoreKind, seed: UInt64) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let context = stack.newContext()
        let undoManager = UndoManager()
        var generator = SplitMix64(seed: seed)
        let (states, saved) = try context.performAndWait {
            context.undoManager = undoManager
            var run = OrderedRelationshipDifferentialTests.Run(context: context)
            var ignored = OrderedFixtures.Reference()
            var states = [try OrderedFixtures.observed(in: context)]
            var saved: [Int] = []
            for group in 0..<14 {
                undoManager.beginUndoGrouping()
                if group == 0 { for name in ["p0", "p1", "p2"] { run.makePlaylist(name, reference: &ignored) } }
                for _ in 0..<Int.random(in: 1...5, using: &generator) {
                    run.step(&ignored, &generator)
                    context.processPendingChanges()
                }
                // A step may change nothing, and an empty group is dropped (as Foundation's
                // manager drops it): setting a name to itself still records a change. Ending the
                // group processes it into the group.
                run.playlists["p0"]?.name = "p0"
                undoManager.endUndoGrouping()
                states.append(try OrderedFixtures.observed(in: context))
                if Bool.random(using: &generator) {
                    try context.save()
                    saved.append(group)
                }
            }
            return (states, saved)
        }
        #expect(!saved.isEmpty)
        try context.performAndWait {
            for step in stride(from: states.count - 1, to: 0, by: -1) {
                #expect(undoManager.canUndo)
                context.undo()
                #expect(try OrderedFixtures.observed(in: context) == states[step - 1], "undo to state \(step - 1)")
            }
            #expect(!undoManager.canUndo)
            for step in 1..<states.count {
                context.redo()
                #expect(try OrderedFixtures.observed(in: context) == states[step], "redo to state \(step)")
            }
            #expect(!undoManager.canRedo)
            for _ in 0..<3 { context.undo() }
            try context.save()
        }
        let fresh = stack.newContext()
        let stored = try fresh.performAndWait { try OrderedFixtures.observed(in: fresh) }
        #expect(OrderedFixtures.normalized(stored) == OrderedFixtures.normalized(states[states.count - 4]))
    }

    /// Each group undone and redone at once, after a save half the time (undoing a saved
    /// deletion inserts the object again).
    @Test(arguments: StoreKind.allCases)
    func eachGroupUndoesAndRedoesAcrossSaves(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try OrderedFixtures.model())
        let context = stack.newContext()
        var generator = SplitMix64(seed: 11)
        try context.performAndWait {
            let undoManager = UndoManager()
            context.undoManager = undoManager
            var run = OrderedRelationshipDifferentialTests.Run(context: context)
            var ignored = OrderedFixtures.Reference()
            for name in ["p0", "p1", "p2"] { run.makePlaylist(name, reference: &ignored) }
            for group in 0..<80 {
                let before = try OrderedFixtures.observed(in: context)
                undoManager.beginUndoGrouping()
                for _ in 0..<Int.random(in: 1...5, using: &generator) { run.step(&ignored, &generator) }
                run.playlists["p0"]?.name = "p0"
                undoManager.endUndoGrouping()
                let after = try OrderedFixtures.observed(in: context)
                if Bool.random(using: &generator) { try context.save() }
                context.undo()
                #expect(try OrderedFixtures.observed(in: context) == before, "undo of group \(group)")
                context.redo()
                #expect(try OrderedFixtures.observed(in: context) == after, "redo of group \(group)")
            }
            try context.save()
        }
    }

    @Test func eachEventIsAStepOutsideAGroupAndNewChangesForgetRedo() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        context.performAndWait {
            context.undoManager = UndoManager()
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            context.processPendingChanges()
            team.wins = 3
            context.processPendingChanges()
            team.wins = 5
            context.undo()
            #expect(team.wins == 3)
            context.undo()
            #expect(team.wins == 0)
            context.redo()
            #expect(team.wins == 3)
            team.teamName = "Brasil"
            context.processPendingChanges()
            #expect(context.undoManager?.canRedo == false)
            context.undo()
            context.undo()
            context.undo()
            #expect(team.isDeleted && context.insertedObjects.isEmpty)
            context.redo()
            #expect(!team.isDeleted && team.teamName == "Brazil" && context.insertedObjects.contains(team))
        }
    }

    @Test func mergesAndRollbacksAreNotUndone() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        let id = try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Chile"
            team.qualifyingZone = "CONMEBOL"
            try context.save()
            context.undoManager = UndoManager()
            context.automaticallyMergesChangesFromParent = true
            return team.objectID
        }
        let other = stack.newContext()
        try other.performAndWait {
            (try other.existingObject(with: id) as? Team)?.wins = 9
            try other.save()
        }
        try context.performAndWait {
            let team = try #require(try context.existingObject(with: id) as? Team)
            #expect(team.wins == 9)
            #expect(context.undoManager?.canUndo == false)
            team.teamName = "Perú"
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.rollback()
            context.processPendingChanges()
            #expect(team.teamName == "Chile")
            #expect(context.undoManager?.canUndo == false)
        }
    }
}
