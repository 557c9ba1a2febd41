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

    @Test(arguments: StoreKind.allCases)
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

    @Test(arguments: StoreKind.allCases)
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
}
