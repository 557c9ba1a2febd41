import Foundation
import OpenCoreData
import Testing

/// A dictionary fetch on SQLite selects only the columns of its keys; the values it returns, and
/// the objects read afterwards, are those of whole rows.
@Suite struct DictionaryColumnsTests {
    /// The dictionaries of a request for teams, each beside the team it describes (the teams
    /// fetched afterwards, in the same order).
    private static func dictionariesAndTeams(keys: [String]?, in context: ManagedObjectContext) throws -> [(NSDictionary, Team)] {
        let request = FetchRequest<NSDictionary>(entityName: "Team")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = keys
        request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"), FetchSortDescriptor(key: "teamName")]
        let rows = try context.fetch(request)
        let teams = Team.fetchRequest()
        teams.sortDescriptors = request.sortDescriptors
        let objects = try context.fetch(teams)
        #expect(rows.count == objects.count)
        return Array(zip(rows, objects))
    }

    @Test func onlyTheKeysColumnsAreSelectedAndTheirValuesReturned() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        try context.performAndWait {
            var pairs: [(NSDictionary, Team)] = []
            let selects = try log.selects { pairs = try Self.dictionariesAndTeams(keys: ["teamName", "coach.name"], in: context) }
            let dictionariesSQL = try #require(selects.first)
            #expect(dictionariesSQL.contains("\"teamName\""), "\(dictionariesSQL)")
            #expect(!dictionariesSQL.contains("\"imageName\""), "\(dictionariesSQL)")
            #expect(!dictionariesSQL.contains("\"wins\""), "\(dictionariesSQL)")
            #expect(!pairs.isEmpty)
            for (row, team) in pairs {
                #expect(row["teamName"] as? String == team.teamName)
                #expect(row["coach.name"] as? String == team.coach?.name)
                #expect(row.count == (team.coach == nil ? 1 : 2))
                // The object holds every attribute, not the few the dictionaries read.
                #expect(!team.qualifyingZone.isEmpty)
            }
        }
    }

    /// Without properties to fetch, every stored attribute is a key: the same values as the
    /// objects', on both stores.
    @Test(arguments: StoreKind.allCases)
    func everyAttributeMatchesTheObjects(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        try context.performAndWait {
            let pairs = try Self.dictionariesAndTeams(keys: nil, in: context)
            #expect(!pairs.isEmpty)
            for (row, team) in pairs {
                #expect(row["teamName"] as? String == team.teamName)
                #expect(row["qualifyingZone"] as? String == team.qualifyingZone)
                #expect((row["wins"] as? NSNumber)?.int16Value == team.wins)
                #expect(row["imageName"] as? String == team.imageName)
            }
        }
    }
}
