import Foundation
import OpenCoreData
import Testing

@Suite struct FetchRequestTests {
    nonisolated(unsafe) static let predicateCases: [(format: String, arguments: [Any?], expected: [String])] = [
        ("qualifyingZone == %@", ["UEFA"], ["France", "Germany", "Spain"]),
        ("wins > 2", [], ["Argentina", "Brazil", "Germany"]),
        ("wins BETWEEN {1, 3}", [], ["Argentina", "France", "Spain"]),
        ("teamName BEGINSWITH[c] 'b'", [], ["Brazil"]),
        ("teamName IN {'Japan', 'Korea'}", [], ["Japan", "Korea"]),
        ("imageName == nil", [], ["Argentina", "Korea", "Spain"]),
        ("imageName != nil AND wins < 3", [], ["France", "Japan"]),
        ("NOT (wins > 0)", [], ["Japan", "Korea"]),
        ("coach.name == 'Didier'", [], ["France"]),
        ("coach == nil", [], ["Germany", "Japan", "Korea"]),
        ("ANY players.number > 10", [], ["Brazil", "Japan"]),
        ("players.@count >= 2", [], ["Argentina", "Brazil", "France", "Japan"]),
        ("players.@sum.number > 20", [], ["Brazil"]),
        ("players.@max.number == 10", [], ["Argentina", "France"]),
        ("SUBQUERY(players, $p, $p.number >= 9).@count > 1", [], ["Argentina", "Brazil", "France"]),
        ("ALL players.number < 11", [], ["Argentina", "France", "Germany", "Korea", "Spain"]),
        ("NONE players.name BEGINSWITH 'A'", [], ["France", "Germany", "Japan", "Korea", "Spain"]),
        ("ANY players.clubs.name == 'South FC'", [], ["Argentina", "Brazil", "France", "Japan"]),
        ("teamName LIKE 'S*n'", [], ["Spain"]),
        ("teamName MATCHES 'B.*l'", [], ["Brazil"]),
        ("teamName CONTAINS[cd] 'AP'", [], ["Japan"]),
        ("TRUEPREDICATE", [], ["Argentina", "Brazil", "France", "Germany", "Japan", "Korea", "Spain"]),
        ("FALSEPREDICATE", [], []),
        ("qualifyingZone == 'AFC' OR (wins >= 4 AND coach != nil)", [], ["Brazil", "Japan", "Korea"]),
    ]

    private func names(_ kind: StoreKind, _ format: String, _ arguments: [Any?]) throws -> [String] {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        return try context.performAndWait {
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: format, argumentArray: arguments)
            request.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
            return try context.fetch(request).map(\.teamName)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func predicatesSelectTheRightTeams(kind: StoreKind) throws {
        for testCase in Self.predicateCases {
            #expect(try names(kind, testCase.format, testCase.arguments) == testCase.expected, "\(testCase.format)")
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func sortsThroughToOneRelationshipsWithNilFirst(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        let (ascending, descending) = try context.performAndWait {
            let request = Team.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "coach.name"), FetchSortDescriptor(key: "teamName")]
            let ascending = try context.fetch(request).map { "\($0.coach?.name ?? "-"):\($0.teamName)" }
            request.sortDescriptors = [FetchSortDescriptor(key: "coach.name", ascending: false), FetchSortDescriptor(key: "teamName")]
            return (ascending, try context.fetch(request).map { "\($0.coach?.name ?? "-"):\($0.teamName)" })
        }
        #expect(ascending == ["-:Germany", "-:Japan", "-:Korea", "Didier:France", "Lionel:Argentina", "Luis:Spain", "Tite:Brazil"])
        #expect(descending == ["Tite:Brazil", "Luis:Spain", "Lionel:Argentina", "Didier:France", "-:Germany", "-:Japan", "-:Korea"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func stringComparisonsForSorting(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let names = ["file10", "File2", "alpha", "Beta", "file2"]
        let orders = try context.performAndWait {
            for name in names {
                let item = Item(context: context)
                item.name = name
            }
            try context.save()
            return try [FetchSortDescriptor.Comparison.binary, .caseInsensitive, .localizedStandard].map { comparison in
                let request = Item.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(key: "name", comparison: comparison)]
                return try context.fetch(request).map(\.name)
            }
        }
        #expect(orders[0] == ["Beta", "File2", "alpha", "file10", "file2"])
        // Ties after folding keep the saved order (object ID).
        #expect(orders[1] == ["alpha", "Beta", "file10", "File2", "file2"])
        #expect(orders[2].prefix(2) == ["alpha", "Beta"])
        #expect(orders[2].firstIndex(of: "file10")! > orders[2].firstIndex(of: "file2")!)
    }

    @Test(arguments: StoreKind.withPostgres)
    func unsavedChangesAreFetchedInOrderAndWindowed(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        let (withChanges, withoutChanges, counted) = try context.performAndWait {
            let all = try context.all(Team.self)
            let spain = try #require(all.first { $0.teamName == "Spain" })
            spain.wins = 9                                           // moves to the top
            context.delete(try #require(all.first { $0.teamName == "Brazil" }))
            let mexico = Team(context: context)
            mexico.teamName = "Mexico"
            mexico.qualifyingZone = "CONCACAF"
            mexico.wins = 3                                          // ties with Argentina
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "wins >= 2")
            request.sortDescriptors = [FetchSortDescriptor(key: "wins", ascending: false), FetchSortDescriptor(key: "teamName")]
            request.fetchLimit = 3
            request.fetchOffset = 1
            let withChanges = try context.fetch(request).map(\.teamName)
            request.includesPendingChanges = false
            let withoutChanges = try context.fetch(request).map(\.teamName)
            request.includesPendingChanges = true
            request.fetchLimit = 0
            request.fetchOffset = 0
            return (withChanges, withoutChanges, try context.count(for: request))
        }
        #expect(withChanges == ["Germany", "Argentina", "Mexico"])
        #expect(withoutChanges == ["Germany", "Argentina", "France"])
        #expect(counted == 5)
    }

    @Test(arguments: StoreKind.withPostgres)
    func resultTypes(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        try context.performAndWait {
            let ids = FetchRequest<ManagedObjectID>(entityName: "Team")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = try FetchPredicate(format: "qualifyingZone == 'AFC'")
            #expect(try context.fetch(ids).count == 2)
            #expect(context.registeredObjects.isEmpty)

            let count = FetchRequest<NSNumber>(entityName: "Team")
            count.resultType = .countResultType
            #expect(try context.fetch(count).first?.intValue == 7)

            let dictionaries = FetchRequest<NSDictionary>(entityName: "Team")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["qualifyingZone", "coach.name"]
            dictionaries.predicate = try FetchPredicate(format: "qualifyingZone != 'AFC'")
            dictionaries.sortDescriptors = [FetchSortDescriptor(key: "teamName")]
            let rows = try context.fetch(dictionaries)
            #expect(rows.count == 5)
            #expect(rows.first?["coach.name"] as? String == "Lionel")
            #expect(rows.first?["qualifyingZone"] as? String == "CONMEBOL")
            dictionaries.propertiesToFetch = ["qualifyingZone"]
            dictionaries.returnsDistinctResults = true
            #expect(try context.fetch(dictionaries).compactMap { $0["qualifyingZone"] as? String } == ["CONMEBOL", "UEFA"])
        }
    }

    @Test func batchedFetchReadsIDsThenOneBatchAtATime() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        let context = stack.newContext()
        try context.performAndWait {
            for index in 0..<10_000 {
                let item = Item(context: context)
                item.name = String(format: "item %05d", index)
            }
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let request = Item.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            request.fetchBatchSize = 20
            var items: [Item] = []
            let fetchSQL = try log.selects { items = try reader.fetch(request) }
            #expect(fetchSQL.count == 1)
            // Only the keys: an entity without subentities needs no entity column, so the sort index covers the query.
            #expect(fetchSQL.first?.hasPrefix("SELECT t0.\"_pk\" FROM") == true, "\(fetchSQL)")
            #expect(log.selects { _ = items.count }.isEmpty)
            #expect(items.allSatisfy { $0.isFault })
            let batchSQL = log.selects {
                for index in 40..<60 { _ = items[index].name }
            }
            #expect(batchSQL.count == 1)
            #expect(items[40].name == "item 00040" && items[59].name == "item 00059")
            #expect(items[39].isFault && items[60].isFault)
            var counted = 0
            let countSQL = try log.selects { counted = try reader.count(for: request) }
            #expect(counted == 10_000)
            #expect(countSQL.count == 1 && countSQL[0].hasPrefix("SELECT COUNT(*)"))
        }
    }

    @Test func lazyResultsCreateObjectsOnlyWhenRead() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try WorldCupData.seed(stack.newContext())
        let reader = stack.newContext()
        try reader.performAndWait {
            let request = Player.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            request.fetchBatchSize = 4
            let players = try reader.fetchLazily(request)
            #expect(players.count == 11)
            #expect(reader.registeredObjects.isEmpty)
            let sql = log.selects { _ = players[5].name }
            #expect(sql.count == 1)
            #expect(players[4].isFault == false && players[7].isFault == false && players[8].isFault)
            #expect(players.map(\.name).first == "Alisson")
        }
    }

    @Test func childContextsBatchThroughTheirParent() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try WorldCupData.seed(stack.newContext())
        let parent = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let request = Player.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "number"), FetchSortDescriptor(key: "name")]
            request.fetchBatchSize = 5
            var players: [Player] = []
            let fetchSQL = try log.selects { players = try child.fetch(request) }
            #expect(fetchSQL.count == 1)
            #expect(log.selects { _ = players[0].name; _ = players[4].name }.count == 1)
            #expect(players.prefix(5).map(\.number) == [1, 1, 1, 6, 9])
        }
    }

    @Test func prefetchingReadsEachRelationshipOnce() throws {
        let stack = try TestStack(.sqlite, recordingSQL: true)
        let log = try #require(stack.log)
        try WorldCupData.seed(stack.newContext())
        let reader = stack.newContext()
        try reader.performAndWait {
            let request = Team.fetchRequest()
            request.relationshipKeyPathsForPrefetching = ["coach", "players.clubs"]
            var teams: [Team] = []
            let fetchSQL = try log.selects { teams = try reader.fetch(request) }
            // Teams, coaches, players' links, players, clubs' links, clubs.
            #expect(fetchSQL.count == 6)
            let readSQL = log.selects {
                for team in teams {
                    _ = team.coach?.name
                    for player in team.players { _ = player.clubs.map(\.name) }
                }
            }
            #expect(readSQL.isEmpty)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func evaluateWithObjectsAndDictionaries(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try WorldCupData.seed(stack.newContext())
        let context = stack.newContext()
        try context.performAndWait {
            let brazil = try #require(try context.all(Team.self).first { $0.teamName == "Brazil" })
            #expect(try FetchPredicate(format: "ANY players.number == 20 AND coach.name == 'Tite'").evaluate(with: brazil))
            #expect(!(try FetchPredicate(format: "wins < 5").evaluate(with: brazil)))
            #expect(try FetchPredicate(format: "zone == 'UEFA' AND wins > 2").evaluate(with: ["zone": "UEFA", "wins": 3]))
            #expect(try FetchPredicate(format: "coach.name BEGINSWITH 'T'").evaluate(with: ["coach": ["name": "Tite"]]))
            #expect(try FetchPredicate(format: "players.@count == 2").evaluate(with: ["players": [["n": 1], ["n": 2]]]))
            let variable = try FetchPredicate(format: "wins >= $MIN")
            #expect(variable.evaluate(with: brazil, substitutionVariables: ["MIN": 5]))
            #expect(!variable.evaluate(with: brazil, substitutionVariables: ["MIN": 6]))
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func predicatesThatDoNotFitTheEntityThrowNamingTheKey(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let cases: [(String, CoreDataErrorCode, [String])] = [
            ("altitude > 3", FetchRequestError.unknownKeyPath, ["Team", "altitude"]),
            ("coach.age > 3", FetchRequestError.unknownKeyPath, ["Coach", "age"]),
            ("wins == 'many'", FetchRequestError.typeMismatch, ["Team.wins", "many"]),
            ("teamName > 3", FetchRequestError.typeMismatch, ["Team.teamName"]),
            ("wins BEGINSWITH '1'", FetchRequestError.typeMismatch, ["Team.wins"]),
            ("wins >= $MIN", FetchRequestError.unboundVariable, ["$MIN"]),
            ("ANY wins > 3", FetchRequestError.typeMismatch, ["wins"]),
        ]
        try context.performAndWait {
            for (format, code, fragments) in cases {
                let request = Team.fetchRequest()
                request.predicate = try FetchPredicate(format: format)
                let error = #expect(throws: FetchRequestError.self, "\(format)") { try context.fetch(request) }
                #expect(error?.code == code, "\(format)")
                for fragment in fragments {
                    #expect(error?.description.contains(fragment) == true, "\(format): \(error?.description ?? "") should name \(fragment)")
                }
            }
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func sqlInValuesIsData(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let hostile = "'); DROP TABLE Team; --"
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = hostile
            team.qualifyingZone = "\"; DELETE FROM Team; --"
            try context.save()
        }
        let reader = stack.newContext()
        let found = try reader.performAndWait {
            let byArgument = Team.fetchRequest()
            byArgument.predicate = try FetchPredicate(format: "teamName == %@ AND qualifyingZone BEGINSWITH %@", hostile, "\"; DELETE")
            let byLiteral = Team.fetchRequest()
            byLiteral.predicate = try FetchPredicate(format: "teamName == \"'); DROP TABLE Team; --\"")
            let byKey = Team.fetchRequest()
            byKey.predicate = try FetchPredicate(format: "%K == %@", "teamName", hostile)
            return try [byArgument, byLiteral, byKey].map { try reader.fetch($0).map(\.teamName) }
        }
        #expect(found == [[hostile], [hostile], [hostile]])
        let count = try reader.performAndWait { try reader.count(for: Team.fetchRequest()) }
        #expect(count == 1)
    }
}
