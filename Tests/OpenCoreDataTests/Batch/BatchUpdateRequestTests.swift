import Foundation
import OpenCoreData
import Testing

@Suite struct BatchUpdateRequestTests {
    /// Three UEFA teams and two others, each with a distinct win count.
    private func stack(_ kind: StoreKind) throws -> (HistoryStack, [String: ManagedObjectID]) {
        let stack = try HistoryStack(kind)
        var ids: [String: ManagedObjectID] = [:]
        for (index, (name, zone)) in [("Spain", "UEFA"), ("France", "UEFA"), ("Italy", "UEFA"), ("Chile", "CONMEBOL"), ("Japan", "AFC")].enumerated() {
            ids[name] = try stack.insertTeam(name, zone: zone, wins: Int16(index))
        }
        return (stack, ids)
    }

    private func uefaUpdate(_ result: BatchUpdateRequestResultType) throws -> BatchUpdateRequest {
        let request = BatchUpdateRequest(entityName: "Team")
        request.predicate = try FetchPredicate(format: "qualifyingZone == %@", "UEFA")
        request.propertiesToUpdate = ["imageName": "europe.png", "wins": 9]
        request.resultType = result
        return request
    }

    @Test(arguments: StoreKind.withPostgres)
    func writesMatchingRowsOnlyAndReturnsEachResultType(kind: StoreKind) throws {
        let (stack, ids) = try stack(kind)
        let uefa: Set = [ids["Spain"]!, ids["France"]!, ids["Italy"]!]

        let status = try #require(try stack.execute(try uefaUpdate(.statusOnlyResultType)) as? BatchUpdateResult)
        #expect(status.resultType == .statusOnlyResultType)
        #expect(status.result as? Bool == true)
        let teams = try stack.storedTeams()
        for name in ["Spain", "France", "Italy"] {
            #expect(teams[name]?.wins == 9)
            #expect(teams[name]?.imageName == "europe.png")
        }
        #expect(teams["Chile"]?.wins == 3 && teams["Chile"]?.imageName == nil)
        #expect(teams["Japan"]?.wins == 4 && teams["Japan"]?.imageName == nil)

        let count = try #require(try stack.execute(try uefaUpdate(.updatedObjectsCountResultType)) as? BatchUpdateResult)
        #expect(count.result as? Int == 3)
        let idsResult = try #require(try stack.execute(try uefaUpdate(.updatedObjectIDsResultType)) as? BatchUpdateResult)
        #expect(Set(idsResult.result as? [ManagedObjectID] ?? []) == uefa)

        let none = BatchUpdateRequest(entityName: "Team")
        none.predicate = try FetchPredicate(format: "qualifyingZone == 'OFC'")
        none.propertiesToUpdate = ["wins": 1]
        none.resultType = .updatedObjectsCountResultType
        let before = try stack.currentToken()
        #expect((try stack.execute(none) as? BatchUpdateResult)?.result as? Int == 0)
        #expect(try stack.currentToken() == before, "an update of no row commits nothing")
    }

    @Test(arguments: StoreKind.withPostgres)
    func isOneHistoryTransactionOfUpdatesNamingTheProperties(kind: StoreKind) throws {
        let (stack, ids) = try stack(kind)
        let before = try stack.currentToken()
        _ = try stack.execute(try uefaUpdate(.statusOnlyResultType), author: "importer")
        let transactions = try stack.transactions(after: before)
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.author == "importer")
        #expect(transaction.contextName == "batch")
        #expect(try stack.currentToken() == transaction.token, "the store's position advanced to the batch's transaction")
        let changes = transaction.changes ?? []
        #expect(Set(changes.map(\.changedObjectID)) == [ids["Spain"]!, ids["France"]!, ids["Italy"]!])
        for change in changes {
            #expect(change.changeType == .update)
            #expect(Set(change.updatedProperties?.map(\.name) ?? []) == ["imageName", "wins"])
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func leavesRegisteredObjectsUntilTheIDsAreMerged(kind: StoreKind) throws {
        let (stack, ids) = try stack(kind)
        let viewContext = stack.newContext()
        let spain = try viewContext.performAndWait {
            let team = try #require(try viewContext.existingObject(with: ids["Spain"]!) as? Team)
            #expect(team.wins == 0)
            return team
        }
        let result = try #require(try stack.execute(try uefaUpdate(.updatedObjectIDsResultType)) as? BatchUpdateResult)
        viewContext.performAndWait { #expect(spain.wins == 0, "a batch update does not touch registered objects") }
        let updated = try #require(result.result as? [ManagedObjectID])
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [UpdatedObjectsKey: updated], into: [viewContext])
        viewContext.performAndWait {
            #expect(spain.wins == 9)
            #expect(spain.imageName == "europe.png")
        }
    }

    /// Each bad value is refused with the key named, and nothing is written.
    @Test(arguments: StoreKind.withPostgres)
    func refusesBadValuesBeforeWriting(kind: StoreKind) throws {
        let (stack, _) = try stack(kind)
        let cases: [(key: String, value: Any?, code: CoreDataErrorCode, mentions: String)] = [
            ("wins", "many", BatchRequestError.invalidValue, "many"),
            ("wins", 70_000, BatchRequestError.invalidValue, "70000"),
            ("wins", 2.5, BatchRequestError.invalidValue, "2.5"),
            ("teamName", 12, BatchRequestError.invalidValue, "12"),
            ("teamName", nil, BatchRequestError.missingMandatoryProperty, "required"),
            ("teamName", NSNull(), BatchRequestError.missingMandatoryProperty, "required"),
            ("colour", "red", BatchRequestError.invalidValue, "colour"),
            ("players", "x", BatchRequestError.invalidValue, "players"),
        ]
        let before = try stack.currentToken()
        let teams = try stack.storedTeams()
        for (key, value, code, mentions) in cases {
            let request = BatchUpdateRequest(entityName: "Team")
            request.propertiesToUpdate = ["imageName": "ok.png", key: value as Any]
            let error = batchError { _ = try stack.execute(request) }
            #expect(error?.code == code, "\(key) = \(String(describing: value))")
            #expect(error?.key == key)
            #expect(error?.message.contains(key) == true)
            #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "")")
        }
        #expect(try stack.currentToken() == before, "nothing was committed")
        #expect(try stack.storedTeams().mapValues(\.imageName) == teams.mapValues(\.imageName))
    }

    @Test(arguments: StoreKind.withPostgres)
    func refusesAnUnknownEntityAndAnEmptyUpdate(kind: StoreKind) throws {
        let (stack, _) = try stack(kind)
        let unknown = BatchUpdateRequest(entityName: "Stadium")
        unknown.propertiesToUpdate = ["name": "x"]
        #expect(batchError { _ = try stack.execute(unknown) }?.message.contains("Stadium") == true)
        let empty = BatchUpdateRequest(entityName: "Team")
        #expect(batchError { _ = try stack.execute(empty) }?.code == BatchRequestError.invalidRequest)
    }
}
