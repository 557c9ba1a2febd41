import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// The store generation changes with every committed save and with nothing else.
@Suite struct StoreGenerationTests {
    private func generation(_ stack: TestStack) throws -> Int64 {
        try stack.container.persistentStoreCoordinator.storeGeneration()
    }

    private func insertTeam(_ stack: TestStack, named name: String) throws -> ManagedObjectID {
        let context = stack.newContext()
        return try context.performAndWait {
            let team = Team(context: context)
            team.teamName = name
            team.qualifyingZone = "AFC"
            try context.save()
            return team.objectID
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func startsAtZeroAndAdvancesByOnePerSave(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        #expect(try generation(stack) == 0)
        let id = try insertTeam(stack, named: "First")
        #expect(try generation(stack) == 1)
        let context = stack.newContext()
        try context.performAndWait {
            let team = try #require(try context.existingObject(with: id) as? Team)
            #expect(try generation(stack) == 1)
            _ = try context.all(Team.self)
            _ = try context.count(for: Team.fetchRequest())
            #expect(try generation(stack) == 1)
            team.wins = 3
            try context.save()
            #expect(try generation(stack) == 2)
            // Nothing to save: the store is not asked.
            try context.save()
            #expect(try generation(stack) == 2)
            context.delete(team)
            try context.save()
        }
        #expect(try generation(stack) == 3)
    }

    @Test(arguments: StoreKind.withPostgres)
    func aConflictingSaveLeavesItAlone(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let id = try insertTeam(stack, named: "Contested")
        let first = stack.newContext()
        let second = stack.newContext()
        let held = try second.performAndWait { try second.existingObject(with: id) as? Team }
        try first.performAndWait {
            let team = try first.existingObject(with: id) as? Team
            team?.wins = 1
            try first.save()
        }
        let before = try generation(stack)
        #expect(before == 2)
        second.performAndWait {
            held?.wins = 2
            #expect(throws: ObjectGraphError.self) { try second.save() }
        }
        #expect(try generation(stack) == before)
    }

    @Test func survivesReopeningTheStore() throws {
        let stack = try TestStack(.sqlite)
        for index in 0..<3 { _ = try insertTeam(stack, named: "Team \(index)") }
        let coordinator = stack.container.persistentStoreCoordinator
        try coordinator.remove(try coordinator.store())
        let reopened = try stack.reopened()
        #expect(try generation(reopened) == 3)
        _ = try insertTeam(reopened, named: "After")
        #expect(try generation(reopened) == 4)
    }

    @Test func aSaveThroughAnotherConnectionChangesIt() throws {
        let stack = try TestStack(.sqlite)
        _ = try insertTeam(stack, named: "Here")
        let other = try stack.reopened()
        #expect(try generation(stack) == 1 && generation(other) == 1)
        _ = try insertTeam(other, named: "There")
        #expect(try generation(stack) == 2)
        _ = try insertTeam(stack, named: "Here again")
        #expect(try generation(other) == 3)
    }

    /// Stores written before generations existed have no row: they read 0, load as before, and
    /// their first save creates the row.
    @Test func aStoreWithoutTheRowStartsAtZero() throws {
        let stack = try TestStack(.sqlite)
        _ = try insertTeam(stack, named: "Old")
        let coordinator = stack.container.persistentStoreCoordinator
        try coordinator.remove(try coordinator.store())
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write { db in try db.execute(sql: "DELETE FROM _ocd_metadata WHERE key = 'generation'") }
        try queue.close()

        let reopened = try stack.reopened()
        #expect(try generation(reopened) == 0)
        _ = try insertTeam(reopened, named: "New")
        #expect(try generation(reopened) == 1)
        let context = reopened.newContext()
        let names = try context.performAndWait { try context.all(Team.self, sortedBy: "teamName").map(\.teamName) }
        #expect(names == ["New", "Old"])
    }

    /// Writes that bypass the library change it too (triggers count them), whatever table and
    /// kind of write; the library's own saves count once, however many rows they write.
    @Test func aWriteThatBypassesTheLibraryChangesIt() throws {
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            for index in 0..<5 {
                let player = Player(context: context)
                player.name = "Player \(index)"
                let team = Team(context: context)
                team.teamName = "Team \(index)"
                team.qualifyingZone = "AFC"
                player.team = team
            }
            try context.save()
        }
        #expect(try generation(stack) == 1, "a save of ten rows counted more than once")
        let statements = [
            "UPDATE Team SET wins = wins + 1 WHERE _pk = (SELECT min(_pk) FROM Team)",
            "DELETE FROM Player WHERE _pk = (SELECT min(_pk) FROM Player)",
            "INSERT INTO Team (_pk, _entity, _version, teamName, qualifyingZone, wins) SELECT max(_pk) + 100, _entity, 1, 'Raw', 'AFC', 0 FROM Team",
        ]
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        for statement in statements {
            let before = try generation(stack)
            try queue.write { db in try db.execute(sql: statement) }
            #expect(try generation(stack) > before, "\(statement) did not change the generation")
        }
        let leftover = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM _ocd_saving") }
        #expect(leftover == 0, "the row that makes the triggers stand aside was committed")
        try queue.close()
    }

    /// A store made before the triggers existed gets them at its next writable load.
    @Test func aStoreWithoutTriggersGetsThemWhenOpened() throws {
        let stack = try TestStack(.sqlite)
        _ = try insertTeam(stack, named: "Old")
        let coordinator = stack.container.persistentStoreCoordinator
        try coordinator.remove(try coordinator.store())
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write { db in
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") {
                try db.execute(sql: "DROP TRIGGER \"\(name)\"")
            }
            try db.execute(sql: "DROP TABLE _ocd_saving")
        }

        let reopened = try stack.reopened()
        let before = try generation(reopened)
        try queue.write { db in try db.execute(sql: "UPDATE Team SET wins = 7") }
        #expect(try generation(reopened) > before)
        try queue.close()
    }
}

/// The generation a controller's rows match, followed commit by commit.
@Suite struct StoreGenerationTrailTests {
    @Test func commitsInOrderMoveIt() {
        var trail = StoreGenerationTrail(generation: 4)
        trail.follow(commitFrom: 4, to: 5)
        trail.follow(commitFrom: 5, to: 6)
        #expect(trail.generation == 6)
    }

    /// A context may merge an earlier save after making its own.
    @Test func aCommitHeardEarlyWaitsForTheOnesBeforeIt() {
        var trail = StoreGenerationTrail(generation: 4)
        trail.follow(commitFrom: 5, to: 6)
        #expect(trail.generation == 4)
        trail.follow(commitFrom: 4, to: 5)
        #expect(trail.generation == 6)
    }

    /// A commit the rows already include (made before the fetch) changes nothing.
    @Test func anEarlierCommitIsIgnored() {
        var trail = StoreGenerationTrail(generation: 4)
        trail.follow(commitFrom: 2, to: 3)
        trail.follow(commitFrom: 3, to: 4)
        #expect(trail.generation == 4)
        trail.follow(commitFrom: 4, to: 5)
        #expect(trail.generation == 5)
    }

    /// A commit nobody heard leaves a gap: the trail stays behind, and gives up when too many
    /// commits wait behind the gap.
    @Test func aGapKeepsItBehindForGood() {
        var trail = StoreGenerationTrail(generation: 4)
        for before in Int64(5)..<Int64(5 + StoreGenerationTrail.maximumWaiting) {
            trail.follow(commitFrom: before, to: before + 1)
            #expect(trail.generation == 4)
        }
        trail.follow(commitFrom: 100, to: 101)
        #expect(trail.generation == nil)
        trail.follow(commitFrom: 4, to: 5)
        #expect(trail.generation == nil)
    }
}
