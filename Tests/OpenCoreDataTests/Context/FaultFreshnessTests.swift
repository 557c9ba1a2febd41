import Foundation
import OpenCoreData
import Testing

/// `shouldDeleteInaccessibleFaults` and `stalenessInterval`: what a fault reads when its row
/// was deleted or changed by another context since it was fetched.
@Suite struct FaultFreshnessTests {
    /// Two teams saved; returns their IDs.
    private static func seed(_ stack: TestStack) throws -> [ManagedObjectID] {
        let context = stack.newContext()
        return try context.performAndWait {
            let teams = ["Brazil", "Chile"].map { name in
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = "CONMEBOL"
                return team
            }
            try context.save()
            return teams.map(\.objectID)
        }
    }

    private static func change(_ stack: TestStack, _ body: @escaping (ManagedObjectContext) throws -> Void) throws {
        let other = stack.newContext()
        try other.performAndWait {
            try body(other)
            try other.save()
        }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func aFaultWhoseRowIsGoneReadsAsDeletedOrFailsTheSave(kind: StoreKind, deletes: Bool) throws {
        let stack = try TestStack(kind)
        let ids = try Self.seed(stack)
        let context = stack.newContext()
        try context.performAndWait {
            context.shouldDeleteInaccessibleFaults = deletes
            let gone = try #require(context.object(with: ids[0]) as? Team)
            try Self.change(stack) { other in other.delete(try other.existingObject(with: ids[0])) }
            let kept = try #require(try context.existingObject(with: ids[1]) as? Team)
            kept.wins = 3

            #expect(gone.value(forKey: "teamName") == nil)
            #expect(gone.isDeleted)
            if deletes {
                try context.save()
            } else {
                let error = #expect(throws: ObjectGraphError.self) { try context.save() }
                #expect(error?.code == ObjectGraphError.objectNotFound)
                #expect(error?.message.contains(ids[0].description) == true, "\(String(describing: error))")
                #expect(error?.message.contains("shouldDeleteInaccessibleFaults is false") == true)
                #expect(kept.hasChanges)
                try context.save()
            }
        }
        let fresh = stack.newContext()
        let wins = try fresh.performAndWait { try fresh.all(Team.self).map(\.wins) }
        #expect(wins == [3])
    }

    @Test func rollbackForgetsFaultsThatFoundNoRow() throws {
        let stack = try TestStack(.sqlite)
        let ids = try Self.seed(stack)
        let context = stack.newContext()
        try context.performAndWait {
            context.shouldDeleteInaccessibleFaults = false
            let gone = context.object(with: ids[0])
            try Self.change(stack) { other in other.delete(try other.existingObject(with: ids[0])) }
            _ = gone.value(forKey: "wins")
            context.rollback()
            try context.save()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNonNegativeStalenessIntervalRereadsCachedRows(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let ids = try Self.seed(stack)
        for interval in [-1.0, 0] {
            try Self.change(stack) { other in (try other.existingObject(with: ids[0]) as? Team)?.wins = 1 }
            let context = stack.newContext()
            let wins = try context.performAndWait {
                context.stalenessInterval = interval
                let request = Team.fetchRequest()
                request.predicate = try FetchPredicate(format: "teamName == 'Brazil'")
                let team = try #require(try context.fetch(request).first)
                #expect(team.isFault)
                try Self.change(stack) { other in (try other.existingObject(with: ids[0]) as? Team)?.wins = 7 }
                return team.wins
            }
            // The fetch cached wins 1 with the fault; only a non-negative interval reads the 7.
            #expect(wins == (interval < 0 ? 1 : 7), "interval \(interval)")
        }
    }
}
