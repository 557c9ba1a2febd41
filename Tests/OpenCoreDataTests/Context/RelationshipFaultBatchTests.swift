import Foundation
import OpenCoreData
import Testing

/// Reading the members of a to-many relationship loads them a batch at a time, in one query
/// each, not one query per member; what a batch finds is what each member would have read alone.
@Suite struct RelationshipFaultBatchTests {
    /// A team with `count` players, and a club with all of them (a join table), saved.
    private func seed(_ stack: TestStack, players count: Int) throws -> (team: ManagedObjectID, club: ManagedObjectID) {
        let context = stack.newContext()
        return try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Spain"
            team.qualifyingZone = "UEFA"
            let club = Club(context: context)
            club.name = "Everyone"
            for number in 0..<count {
                let player = Player(context: context)
                player.name = "Player \(number)"
                player.number = Int32(number)
                player.team = team
                club.players.insert(player)
            }
            try context.save()
            return (team.objectID, club.objectID)
        }
    }

    @Test func everyMemberOfAToManyLoadsInBatchesOfAHundred() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        let (teamID, clubID) = try seed(stack, players: 250)
        for ownerID in [teamID, clubID] {
            let context = stack.newContext()
            let (selects, numbers) = try context.performAndWait { () throws -> ([String], [Int32]) in
                let owner = context.object(with: ownerID)
                var numbers: [Int32] = []
                let selects = try log.selects {
                    let players = try #require((owner as? Team)?.players ?? (owner as? Club)?.players)
                    numbers = players.map(\.number)
                }
                return (selects, numbers)
            }
            #expect(numbers.sorted() == (0..<250).map(Int32.init))
            // The owner's row, the relationship's keys, then the players in three batches.
            #expect(selects.count == 5, "\(selects)")
        }
    }

    @Test func membersAlreadyLoadedOrChangedKeepWhatTheContextHas() throws {
        let stack = try TestStack(.sqlite)
        let (teamID, _) = try seed(stack, players: 30)
        let context = stack.newContext()
        try context.performAndWait {
            let request = Player.fetchRequest()
            request.predicate = try FetchPredicate(format: "number < 5")
            let firstFive = try context.fetch(request)
            for player in firstFive { player.name += " (changed)" }
            let team = try #require(context.object(with: teamID) as? Team)
            let names = Set(team.players.map(\.name))
            #expect(names.count == 30)
            #expect(names.filter { $0.hasSuffix("(changed)") }.count == 5)
            #expect(firstFive.allSatisfy { $0.hasChanges })
        }
    }

    @Test func aMemberDeletedBeforeItsBatchLoadsIsInaccessibleAndTheOthersLoad() throws {
        let stack = try TestStack(.sqlite)
        let (teamID, _) = try seed(stack, players: 10)
        let reader = stack.newContext()
        let players = try reader.performAndWait { () throws -> [Player] in
            let team = try #require(reader.object(with: teamID) as? Team)
            return Array(team.players)
        }
        // Another context deletes one member after the relationship loaded, before any fired.
        let writer = stack.newContext()
        let deletedID = reader.performAndWait { players[0].objectID }
        try writer.performAndWait {
            writer.delete(writer.object(with: deletedID))
            try writer.save()
        }
        reader.performAndWait {
            let names = players.map(\.name)
            #expect(names.filter(\.isEmpty).count == 1)
            #expect(Set(names.filter { !$0.isEmpty }).count == 9)
            #expect(players[0].isFault == false && players[0].name.isEmpty)
        }
    }
}
