import Foundation
import OpenCoreData
import Testing

@Suite struct BatchDeleteRequestTests {
    /// Two UEFA teams with players and a coach, a club of players of both, and a team elsewhere.
    private struct League {
        let stack: HistoryStack
        var teams: [String: ManagedObjectID] = [:]
        var players: [String: ManagedObjectID] = [:]
        var coaches: [String: ManagedObjectID] = [:]
        var club: ManagedObjectID?
    }

    private func makeLeague(_ kind: StoreKind, model: ManagedObjectModel? = nil) throws -> League {
        var league = League(stack: try HistoryStack(kind, model: model))
        let context = league.stack.newContext()
        try context.performAndWait {
            let club = Club(context: context)
            club.name = "All Stars"
            var objects: [String: ManagedObject] = [:]
            for (name, zone) in [("Spain", "UEFA"), ("France", "UEFA"), ("Chile", "CONMEBOL")] {
                let team = Team(context: context)
                team.teamName = name
                team.qualifyingZone = zone
                let coach = Coach(context: context)
                coach.name = "\(name) coach"
                team.coach = coach
                objects["team " + name] = team
                objects["coach " + name] = coach
                for number in 1...2 {
                    let player = Player(context: context)
                    player.name = "\(name) \(number)"
                    player.team = team
                    player.clubs = [club]
                    objects["player " + player.name] = player
                }
            }
            try context.save()
            league.club = club.objectID
            for (key, object) in objects {
                let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
                switch parts[0] {
                case "team": league.teams[parts[1]] = object.objectID
                case "coach": league.coaches[parts[1]] = object.objectID
                default: league.players[parts[1]] = object.objectID
                }
            }
        }
        return league
    }

    private func uefaDelete(_ resultType: BatchDeleteRequestResultType) throws -> BatchDeleteRequest {
        let fetch = FetchRequest<Team>(entityName: "Team")
        fetch.predicate = try FetchPredicate(format: "qualifyingZone == %@", "UEFA")
        let request = BatchDeleteRequest(fetchRequest: fetch)
        request.resultType = resultType
        return request
    }

    /// The IDs of every stored object of the entity, as a fresh context fetches them.
    private func stored(_ entityName: String, in stack: HistoryStack) throws -> Set<ManagedObjectID> {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObjectID>(entityName: entityName)
            request.resultType = .managedObjectIDResultType
            return Set(try context.fetch(request))
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func cascadesNullifiesAndReturnsEveryDeletedID(kind: StoreKind) throws {
        let league = try makeLeague(kind)
        let stack = league.stack
        let result = try #require(try stack.execute(try uefaDelete(.resultTypeObjectIDs)) as? BatchDeleteResult)
        let expected: Set = [league.teams["Spain"]!, league.teams["France"]!, league.players["Spain 1"]!, league.players["Spain 2"]!,
                             league.players["France 1"]!, league.players["France 2"]!]
        #expect(Set(result.result as? [ManagedObjectID] ?? []) == expected, "the teams and, by cascade, their players")
        #expect(try stored("Team", in: stack) == [league.teams["Chile"]!])
        #expect(try stored("Player", in: stack) == [league.players["Chile 1"]!, league.players["Chile 2"]!])
        #expect(try stored("Coach", in: stack).count == 3, "coaches are nullified, not deleted")

        let context = stack.newContext()
        try context.performAndWait {
            let spainCoach = try #require(try context.existingObject(with: league.coaches["Spain"]!) as? Coach)
            #expect(spainCoach.team == nil, "the coach's inverse to-one no longer points to the deleted team")
            let chileCoach = try #require(try context.existingObject(with: league.coaches["Chile"]!) as? Coach)
            #expect(chileCoach.team?.teamName == "Chile")
            let club = try #require(try context.existingObject(with: league.club!) as? Club)
            #expect(Set(club.players.map(\.objectID)) == [league.players["Chile 1"]!, league.players["Chile 2"]!],
                    "the many-to-many links of deleted players are gone")
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func returnsStatusAndCount(kind: StoreKind) throws {
        let league = try makeLeague(kind)
        let status = try #require(try league.stack.execute(try uefaDelete(.resultTypeStatusOnly)) as? BatchDeleteResult)
        #expect(status.result as? Bool == true)
        #expect(try stored("Team", in: league.stack).count == 1)
        let request = BatchDeleteRequest(objectIDs: [league.teams["Chile"]!, league.teams["Spain"]!])
        request.resultType = .resultTypeCount
        let count = try #require(try league.stack.execute(request) as? BatchDeleteResult)
        #expect(count.result as? Int == 3, "Chile and its two players; Spain was already deleted")
        #expect(try stored("Team", in: league.stack).isEmpty)
    }

    @Test(arguments: StoreKind.withPostgres)
    func recordsDeletesWithTombstonesAndNullifiedUpdatesInOneTransaction(kind: StoreKind) throws {
        let model = try Fixtures.model()
        model.entitiesByName["Team"]?.attributesByName["teamName"]?.preservesValueInHistoryOnDeletion = true
        let league = try makeLeague(kind, model: model)
        let stack = league.stack
        let before = try stack.currentToken()
        let request = BatchDeleteRequest(objectIDs: [league.teams["Spain"]!])
        _ = try stack.execute(request, author: "cleaner")
        let transactions = try stack.transactions(after: before)
        try #require(transactions.count == 1)
        #expect(transactions[0].author == "cleaner")
        #expect(try stack.currentToken() == transactions[0].token)
        let changes = transactions[0].changes ?? []
        let deletes = changes.filter { $0.changeType == .delete }
        #expect(Set(deletes.map(\.changedObjectID)) == [league.teams["Spain"]!, league.players["Spain 1"]!, league.players["Spain 2"]!])
        #expect(deletes.first { $0.changedObjectID == league.teams["Spain"]! }?.tombstone?["teamName"] as? String == "Spain")
        let updates = changes.filter { $0.changeType == .update }
        #expect(updates.map(\.changedObjectID) == [league.coaches["Spain"]!])
        #expect(updates.first?.updatedProperties?.map(\.name) == ["team"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func denyRuleRefusesTheWholeRequestUnlessTheDestinationsGoToo(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let context = stack.newContext()
        let (busy, empty, employee) = try context.performAndWait { () throws -> (ManagedObjectID, ManagedObjectID, ManagedObjectID) in
            let busy = Department(context: context)
            busy.title = "Sales"
            let empty = Department(context: context)
            empty.title = "Research"
            let employee = Employee(context: context)
            employee.name = "Ada"
            employee.department = busy
            try context.save()
            return (busy.objectID, empty.objectID, employee.objectID)
        }
        let before = try stack.currentToken()
        let error = batchError { _ = try stack.execute(BatchDeleteRequest(objectIDs: [empty, busy])) }
        #expect(error?.code == BatchRequestError.relationshipDeniedDelete)
        #expect(error?.key == "employees")
        #expect(try stack.currentToken() == before, "nothing was deleted, not even the empty department")
        #expect(try stored("Department", in: stack) == [busy, empty])

        let both = BatchDeleteRequest(objectIDs: [busy, employee, empty])
        both.resultType = .resultTypeCount
        #expect((try stack.execute(both) as? BatchDeleteResult)?.result as? Int == 3)
        #expect(try stored("Department", in: stack).isEmpty)
    }

    @Test(arguments: StoreKind.withPostgres)
    func refusesToLeaveARequiredInverseWithoutAValue(kind: StoreKind) throws {
        let model = try Fixtures.model()
        model.entitiesByName["Coach"]?.relationshipsByName["team"]?.isOptional = false
        let league = try makeLeague(kind, model: model)
        let before = try league.stack.currentToken()
        let error = batchError { _ = try league.stack.execute(try uefaDelete(.resultTypeStatusOnly)) }
        #expect(error?.code == BatchRequestError.relationshipDeniedDelete)
        #expect(error?.key == "team")
        #expect(try league.stack.currentToken() == before)
        #expect(try stored("Team", in: league.stack).count == 3)
    }

    @Test(arguments: StoreKind.withPostgres)
    func leavesRegisteredObjectsUntilTheIDsAreMerged(kind: StoreKind) throws {
        let league = try makeLeague(kind)
        let viewContext = league.stack.newContext()
        let spain = try viewContext.performAndWait { try viewContext.existingObject(with: league.teams["Spain"]!) }
        let result = try #require(try league.stack.execute(try uefaDelete(.resultTypeObjectIDs)) as? BatchDeleteResult)
        viewContext.performAndWait { #expect(!spain.isDeleted && spain.managedObjectContext === viewContext) }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [DeletedObjectsKey: result.result as? [ManagedObjectID] ?? []], into: [viewContext])
        viewContext.performAndWait {
            #expect(viewContext.registeredObjects.contains { $0.objectID == league.teams["Spain"]! } == false)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func refusesIDsOfAnotherStore(kind: StoreKind) throws {
        let league = try makeLeague(kind)
        let other = try makeLeague(kind)
        let error = batchError { _ = try league.stack.execute(BatchDeleteRequest(objectIDs: [other.teams["Spain"]!])) }
        #expect(error?.code == BatchRequestError.invalidRequest)
    }
}
