import Foundation
import OpenCoreData
import Testing

@Suite struct SmokeTests {
    @Test(arguments: StoreKind.withPostgres)
    func insertSaveFetch(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            team.wins += 1
            #expect(team.objectID.isTemporaryID)
            try context.save()
            #expect(!team.objectID.isTemporaryID)
            let teams = try context.all(Team.self)
            #expect(teams.count == 1)
            #expect(teams.first?.wins == 1)
            #expect(teams.first === team)
        }
    }
}
