import Foundation
import OpenCoreData
import Testing

@Suite struct FoundationBridgeTests {
    private func names(_ kind: StoreKind, _ predicate: FetchPredicate?, sort: [FetchSortDescriptor] = [FetchSortDescriptor(key: "teamName")]) throws -> [String] {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        return try context.performAndWait {
            let request = Team.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = sort
            return try context.fetch(request).map(\.teamName)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func typedPredicatesMatchTheirFormatEquivalents(kind: StoreKind) throws {
        let zone = "UEFA"
        let cases: [(Predicate<Team>, String)] = [
            (#Predicate<Team> { $0.wins > 2 && $0.qualifyingZone != "AFC" }, "wins > 2 AND qualifyingZone != 'AFC'"),
            (#Predicate<Team> { $0.qualifyingZone == zone || $0.wins == 0 }, "qualifyingZone == 'UEFA' OR wins == 0"),
            (#Predicate<Team> { !($0.wins >= 1) }, "NOT (wins >= 1)"),
            (#Predicate<Team> { $0.coach?.name == "Tite" }, "coach.name == 'Tite'"),
            (#Predicate<Team> { $0.coach == nil }, "coach == nil"),
            (#Predicate<Team> { $0.imageName != nil }, "imageName != nil"),
            (#Predicate<Team> { $0.teamName.starts(with: "S") }, "teamName BEGINSWITH 'S'"),
            (#Predicate<Team> { $0.teamName.contains("an") }, "teamName CONTAINS 'an'"),
            (#Predicate<Team> { ["Japan", "Korea"].contains($0.teamName) }, "teamName IN {'Japan', 'Korea'}"),
            (#Predicate<Team> { $0.players.contains { $0.number > 10 } }, "ANY players.number > 10"),
            (#Predicate<Team> { $0.players.allSatisfy { $0.number < 11 } }, "ALL players.number < 11"),
            (#Predicate<Team> { $0.players.contains { $0.number >= 9 && $0.name.starts(with: "M") } },
             "SUBQUERY(players, $p, $p.number >= 9 AND $p.name BEGINSWITH 'M').@count > 0"),
            (#Predicate<Team> { $0.players.count >= 2 }, "players.@count >= 2"),
        ]
        for (typed, format) in cases {
            let expected = try names(kind, try FetchPredicate(format: format))
            #expect(try names(kind, try FetchPredicate(typed)) == expected, "\(format)")
        }
    }

    @Test func unsupportedConstructsAreNamed() throws {
        let arithmetic = #Predicate<Team> { $0.wins + 1 > 3 }
        let error = #expect(throws: FetchRequestError.self) { try FetchPredicate(arithmetic) }
        #expect(error?.code == FetchRequestError.unsupportedExpression)
        #expect(error?.message.contains("Arithmetic") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: StoreKind.withPostgres)
    func typedSortDescriptors(kind: StoreKind) throws {
        let sorted = try names(kind, nil, sort: [
            try FetchSortDescriptor(SortDescriptor(\Team.wins, order: .reverse)),
            try FetchSortDescriptor(SortDescriptor(\Team.teamName)),
        ])
        #expect(sorted == ["Brazil", "Germany", "Argentina", "France", "Spain", "Japan", "Korea"])
        let byCoach = try names(kind, nil, sort: [
            try FetchSortDescriptor(SortDescriptor(\Team.coach?.name, order: .reverse)),
            try FetchSortDescriptor(SortDescriptor(\Team.teamName)),
        ])
        #expect(byCoach == ["Brazil", "Spain", "Argentina", "France", "Germany", "Japan", "Korea"])
        #expect(try FetchSortDescriptor(SortDescriptor(\Team.coach?.name)).key == "coach.name")
    }
}
