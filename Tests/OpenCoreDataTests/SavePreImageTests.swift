import Foundation
@testable import OpenCoreData
import Testing

/// A committed save reports each updated and deleted row as the store had it before the save.
@Suite struct SavePreImageTests {
    /// Sends a context's pending changes to the store directly, to see the store's outcome.
    private func storeOutcome(of context: ManagedObjectContext) throws -> (SaveRequest, SaveOutcome) {
        let request = context.makeSaveRequest()
        let coordinator = try #require(context.persistentStoreCoordinator)
        return (request, try coordinator.save(request))
    }

    private func slot(_ object: ManagedObject, _ key: String) throws -> Int {
        try #require(object.entity.property(named: key)).slot
    }

    @Test(arguments: StoreKind.withPostgres)
    func updatesAndDeletionsCarryTheRowsAsTheyWere(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let home = Team(context: context)
            home.teamName = "Home"
            home.qualifyingZone = "UEFA"
            let away = Team(context: context)
            away.teamName = "Away"
            away.qualifyingZone = "CAF"
            let moved = Player(context: context)
            moved.name = "Moved"
            moved.number = 7
            moved.team = home
            let leaving = Player(context: context)
            leaving.name = "Leaving"
            leaving.number = 9
            leaving.team = home
            try context.save()
            moved.number = 8
            try context.save()

            moved.number = 10
            moved.team = away
            context.delete(leaving)
            let arriving = Player(context: context)
            arriving.name = "Arriving"
            let (request, outcome) = try storeOutcome(of: context)
            guard case .committed(let permanentIDs, let preImages, _, _) = outcome else {
                Issue.record("the save conflicted: \(outcome)")
                return
            }
            let overwritten = Set(request.updated.map(\.snapshot.objectID) + request.deleted.map(\.objectID))
            #expect(Set(preImages.keys) == overwritten)
            #expect(preImages[arriving.objectID] == nil)
            #expect(!permanentIDs.isEmpty && permanentIDs.allSatisfy { preImages[$0.new] == nil })

            let movedBefore = try #require(preImages[moved.objectID])
            #expect(movedBefore.objectID == moved.objectID)
            #expect(movedBefore.version == 2)
            #expect(movedBefore.value(at: try slot(moved, "number")) == .integer(8))
            #expect(movedBefore.value(at: try slot(moved, "name")) == .string("Moved"))
            #expect(movedBefore.value(at: try slot(moved, "team")) == .object(home.objectID))

            let leavingBefore = try #require(preImages[leaving.objectID])
            #expect(leavingBefore.version == 1)
            #expect(leavingBefore.value(at: try slot(leaving, "number")) == .integer(9))
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aSaveOfInsertionsOnlyHasNoPreImages(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "New"
            team.qualifyingZone = "OFC"
            let (_, outcome) = try storeOutcome(of: context)
            guard case .committed(let permanentIDs, let preImages, _, _) = outcome else {
                Issue.record("the save conflicted: \(outcome)")
                return
            }
            #expect(permanentIDs.count == 1)
            #expect(preImages.isEmpty)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func aConflictingSaveCommitsNothing(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let first = stack.newContext()
        let second = stack.newContext()
        let (playerID, otherID) = try first.performAndWait {
            let player = Player(context: first)
            player.name = "Contested"
            let other = Player(context: first)
            other.name = "Bystander"
            try first.save()
            return (player.objectID, other.objectID)
        }
        let held = try second.performAndWait { try second.existingObject(with: playerID) as? Player }
        try first.performAndWait {
            let player = try first.existingObject(with: playerID) as? Player
            player?.number = 1
            try first.save()
        }
        try second.performAndWait {
            held?.number = 2
            second.delete(try second.existingObject(with: otherID))
            let (_, outcome) = try storeOutcome(of: second)
            guard case .conflicts(let conflicts) = outcome else {
                Issue.record("the save committed: \(outcome)")
                return
            }
            #expect(conflicts.map(\.objectID) == [playerID])
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let players = try reader.all(Player.self, sortedBy: "name")
            #expect(players.map(\.name) == ["Bystander", "Contested"])
            #expect(players.map(\.number) == [0, 1])
        }
    }

    /// One `SELECT … IN` per table and chunk of 500 keys, not one per row.
    @Test func preImagesAreReadInBatches() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        let context = stack.newContext()
        try context.performAndWait {
            let teams = (0..<600).map { index in
                let team = Team(context: context)
                team.teamName = "Team \(index)"
                team.qualifyingZone = "Zone"
                team.wins = Int16(index % 50)
                return team
            }
            try context.save()
            for team in teams { team.wins += 1 }
            var outcome: SaveOutcome?
            let selects = try log.selects { outcome = try storeOutcome(of: context).1 }
            #expect(selects.count == 2)
            #expect(selects.allSatisfy { $0.contains("FROM \"Team\" WHERE \"_pk\" IN") })
            guard case .committed(_, let preImages, _, _) = outcome else {
                Issue.record("the save did not commit")
                return
            }
            let wins = try slot(teams[0], "wins")
            #expect(preImages.count == 600)
            #expect(teams.allSatisfy { preImages[$0.objectID]?.value(at: wins) == .integer(Int64($0.wins - 1)) })
        }
    }
}
