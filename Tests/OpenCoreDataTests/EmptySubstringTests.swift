import Foundation
import OpenCoreData
import Testing

// BEGINSWITH, ENDSWITH and CONTAINS with an empty string match no string, as Foundation's
// `range(of:)` finds the empty string nowhere. The corpus (PredicateCorpusTests) checks the
// fetch paths; these check the two others: a fetched results controller judging a changed
// object in memory, and a Foundation #Predicate, where Swift finds "" in every string.

@Suite struct EmptySubstringTests {
    static let operators = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "BEGINSWITH[cd]", "ENDSWITH[c]", "CONTAINS[d]"]

    @Test(arguments: StoreKind.withPostgres)
    func controllersLeaveOutChangedObjects(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try WorldCupData.seed(context)
        for op in Self.operators {
            let shown = try context.performAndWait { () throws -> [String] in
                let request = Team.fetchRequest()
                request.predicate = try FetchPredicate(format: "teamName \(op) '' OR wins > 100")
                request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                          sectionNameKeyPath: nil, cacheName: nil)
                try controller.performFetch()
                let team = Team(context: context)
                team.teamName = "Uruguay"
                team.qualifyingZone = "CONMEBOL"
                let brazil = try #require(try context.all(Team.self).first { $0.teamName == "Brazil" })
                brazil.teamName = "Brasil"
                context.processPendingChanges()
                defer { context.rollback() }
                return controller.fetchedObjects?.map(\.teamName) ?? []
            }
            #expect(shown.isEmpty, "\(op) ''")
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func foundationPredicatesKeepSwiftsAnswer(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        let empty = ""
        let typed: [Predicate<Team>] = [
            #Predicate<Team> { $0.teamName.starts(with: "") },
            #Predicate<Team> { $0.teamName.contains("") },
            #Predicate<Team> { $0.teamName.starts(with: empty) },
            #Predicate<Team> { $0.teamName.contains(empty) && $0.wins >= 0 },
        ]
        try context.performAndWait {
            let teams = try context.all(Team.self)
            for predicate in typed {
                let converted = try FetchPredicate(predicate)
                let request = Team.fetchRequest()
                request.predicate = converted
                let fetched = Set(try context.fetch(request).map(\.teamName))
                let swift = Set(try teams.filter { try predicate.evaluate($0) }.map(\.teamName))
                #expect(swift.count == teams.count)
                #expect(fetched == swift, "\(converted.predicateFormat)")
                #expect(Set(teams.filter { converted.evaluate(with: $0) }.map(\.teamName)) == swift, "\(converted.predicateFormat)")
            }
        }
    }
}
