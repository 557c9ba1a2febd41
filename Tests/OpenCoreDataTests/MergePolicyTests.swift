import Foundation
import OpenCoreData
import Testing

/// Two contexts read the same team; the first saves a change, then the second saves its own,
/// based on the old version. The merge policy decides what the second save writes.
@Suite struct MergePolicyTests {
    struct Outcome: Equatable {
        var teamName: String
        var wins: Int16
        var imageName: String?
    }

    /// Runs the race and returns what the store holds afterwards (or the second save's error).
    private func race(_ kind: StoreKind, policy: MergePolicy) throws -> (Outcome, (any Error)?) {
        let stack = try TestStack(kind)
        let first = stack.newContext()
        let second = stack.newContext()
        second.mergePolicy = policy
        let id = try first.performAndWait {
            let team = Team(context: first)
            team.teamName = "Original"
            team.qualifyingZone = "OFC"
            try first.save()
            return team.objectID
        }
        // Both read version 1.
        let held = try second.performAndWait { try second.existingObject(with: id) as? Team }
        try first.performAndWait {
            let team = try first.existingObject(with: id) as? Team
            team?.wins = 1
            team?.imageName = "first.png"
            try first.save()
        }
        let error: (any Error)? = second.performAndWait {
            held?.wins = 2
            held?.teamName = "Second"
            do {
                try second.save()
                return nil
            } catch {
                return error
            }
        }
        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            let team = try #require(try reader.all(Team.self).first)
            return Outcome(teamName: team.teamName, wins: team.wins, imageName: team.imageName)
        }
        return (stored, error)
    }

    @Test(arguments: StoreKind.withPostgres)
    func errorPolicyRefusesTheSave(kind: StoreKind) throws {
        let (stored, error) = try race(kind, policy: .error)
        let conflict = try #require(error as? ObjectGraphError)
        #expect(conflict.code == ObjectGraphError.mergeConflict)
        #expect(conflict.conflicts.count == 1)
        #expect(Set(conflict.conflicts[0].changedKeys) == ["wins", "teamName"])
        #expect(conflict.conflicts[0].objectVersion == 1 && conflict.conflicts[0].storeVersion == 2)
        #expect(stored == Outcome(teamName: "Original", wins: 1, imageName: "first.png"))
    }

    @Test(arguments: StoreKind.withPostgres)
    func objectTrumpKeepsThisContextsChangesPerProperty(kind: StoreKind) throws {
        let (stored, error) = try race(kind, policy: .mergeByPropertyObjectTrump)
        #expect(error == nil)
        #expect(stored == Outcome(teamName: "Second", wins: 2, imageName: "first.png"))
    }

    @Test(arguments: StoreKind.withPostgres)
    func storeTrumpKeepsTheStoresChangesPerProperty(kind: StoreKind) throws {
        let (stored, error) = try race(kind, policy: .mergeByPropertyStoreTrump)
        #expect(error == nil)
        #expect(stored == Outcome(teamName: "Second", wins: 1, imageName: "first.png"))
    }

    @Test(arguments: StoreKind.withPostgres)
    func overwriteWritesTheWholeObject(kind: StoreKind) throws {
        let (stored, error) = try race(kind, policy: .overwrite)
        #expect(error == nil)
        #expect(stored == Outcome(teamName: "Second", wins: 2, imageName: nil))
    }

    @Test(arguments: StoreKind.withPostgres)
    func rollbackDropsThisContextsChanges(kind: StoreKind) throws {
        let (stored, error) = try race(kind, policy: .rollback)
        #expect(error == nil)
        #expect(stored == Outcome(teamName: "Original", wins: 1, imageName: "first.png"))
    }

    @Test(arguments: StoreKind.withPostgres)
    func anObjectDeletedInTheStore(kind: StoreKind) throws {
        for (policy, survives) in [(MergePolicy.rollback, false), (.mergeByPropertyObjectTrump, true)] {
            let stack = try TestStack(kind)
            let first = stack.newContext()
            let second = stack.newContext()
            second.mergePolicy = policy
            let id = try first.performAndWait {
                let item = Item(context: first)
                item.name = "soap"
                try first.save()
                return item.objectID
            }
            let held = try second.performAndWait { try second.existingObject(with: id) as? Item }
            try first.performAndWait {
                first.delete(try first.existingObject(with: id))
                try first.save()
            }
            try second.performAndWait {
                held?.done = true
                try second.save()
            }
            let reader = stack.newContext()
            let names = try reader.performAndWait { try reader.all(Item.self).map { "\($0.name):\($0.done)" } }
            #expect(names == (survives ? ["soap:true"] : []), "policy \(policy)")
        }
    }
}
