import Foundation
import OpenCoreData
import Testing

@Suite struct BatchInsertRequestTests {
    private let rows: [[String: Any]] = [
        ["teamName": "Spain", "qualifyingZone": "UEFA", "wins": 3],
        ["teamName": "Chile", "qualifyingZone": "CONMEBOL", "imageName": "chile.png"],
        ["teamName": "Japan", "qualifyingZone": "AFC", "wins": Int16(1)],
    ]

    @Test(arguments: StoreKind.withPostgres)
    func insertsRowsWithDefaultsAndReturnsEachResultType(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let request = BatchInsertRequest(entityName: "Team", objects: rows)
        request.resultType = .objectIDs
        let result = try #require(try stack.execute(request) as? BatchInsertResult)
        let ids = try #require(result.result as? [ManagedObjectID])
        #expect(ids.count == 3)
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        let teams = try stack.storedTeams()
        #expect(teams["Spain"]?.wins == 3)
        #expect(teams["Chile"]?.wins == 0, "a value left out takes the attribute's default")
        #expect(teams["Chile"]?.imageName == "chile.png")
        #expect(teams["Japan"]?.wins == 1)
        let context = stack.newContext()
        let first = try context.performAndWait { (try context.existingObject(with: ids[0]) as? Team)?.teamName }
        #expect(first == "Spain", "IDs follow the rows' order")

        // Keys continue after the batch: a context's save takes new ones.
        let later = try stack.insertTeam("Peru", zone: "CONMEBOL")
        #expect(!ids.contains(later))

        let count = BatchInsertRequest(entityName: "Team", objects: [["teamName": "Iran", "qualifyingZone": "AFC"]])
        count.resultType = .count
        #expect((try stack.execute(count) as? BatchInsertResult)?.result as? Int == 1)
        let status = BatchInsertRequest(entityName: "Team", objects: [["teamName": "Oman", "qualifyingZone": "AFC"]])
        #expect((try stack.execute(status) as? BatchInsertResult)?.result as? Bool == true)
        #expect(try stack.storedTeams().count == 6)
    }

    @Test(arguments: StoreKind.withPostgres)
    func callsTheDictionaryHandlerUntilItSaysStop(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        var calls = 0
        let request = BatchInsertRequest(entityName: "Team") { row in
            calls += 1
            guard calls <= 4 else { return true }
            row = ["teamName": "Team \(calls)", "qualifyingZone": "UEFA", "wins": calls]
            return false
        }
        request.resultType = .count
        #expect((try stack.execute(request) as? BatchInsertResult)?.result as? Int == 4)
        #expect(calls == 5)
        #expect(try stack.storedTeams().mapValues(\.wins) == ["Team 1": 1, "Team 2": 2, "Team 3": 3, "Team 4": 4])
    }

    /// Core Data's handler fills an `NSMutableDictionary`; its code ports as it is.
    @Test func fillsCoreDataStyleMutableDictionaries() throws {
        let stack = try HistoryStack(.sqlite)
        let values: [[String: Any]] = [["teamName": "Fiji", "qualifyingZone": "OFC", "wins": 2], ["teamName": "Tonga", "qualifyingZone": "OFC"]]
        var index = 0
        let request = BatchInsertRequest(entityName: "Team", dictionaryHandler: { dictionary in
            guard index < values.count else { return true }
            dictionary.addEntries(from: values[index])
            index += 1
            return false
        })
        #expect((try stack.execute(request) as? BatchInsertResult)?.result as? Bool == true)
        #expect(try stack.storedTeams().mapValues(\.wins) == ["Fiji": 2, "Tonga": 0])
    }

    @Test(arguments: StoreKind.withPostgres)
    func recordsOneTransactionOfInserts(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let before = try stack.currentToken()
        let request = BatchInsertRequest(entityName: "Team", objects: rows)
        request.resultType = .objectIDs
        let ids = try #require((try stack.execute(request, author: "importer") as? BatchInsertResult)?.result as? [ManagedObjectID])
        let transactions = try stack.transactions(after: before)
        try #require(transactions.count == 1)
        #expect(transactions[0].author == "importer")
        #expect(try stack.currentToken() == transactions[0].token)
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert, .insert])
        #expect(Set(transactions[0].changes?.map(\.changedObjectID) ?? []) == Set(ids))
    }

    /// Each bad row is refused with its index and key, and nothing of the request is written.
    @Test(arguments: StoreKind.withPostgres)
    func refusesBadRowsNamingTheRowAndKey(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        let good: [String: Any] = ["teamName": "Spain", "qualifyingZone": "UEFA"]
        let cases: [(row: [String: Any], key: String, code: CoreDataErrorCode)] = [
            (["teamName": "X", "qualifyingZone": "UEFA", "colour": "red"], "colour", BatchRequestError.invalidValue),
            (["teamName": "X", "qualifyingZone": "UEFA", "wins": "many"], "wins", BatchRequestError.invalidValue),
            (["teamName": "X", "qualifyingZone": "UEFA", "wins": 40_000], "wins", BatchRequestError.invalidValue),
            (["teamName": 7, "qualifyingZone": "UEFA"], "teamName", BatchRequestError.invalidValue),
            (["teamName": "X"], "qualifyingZone", BatchRequestError.missingMandatoryProperty),
            (["teamName": "X", "qualifyingZone": NSNull()], "qualifyingZone", BatchRequestError.missingMandatoryProperty),
            (["teamName": "X", "qualifyingZone": "UEFA", "players": []], "players", BatchRequestError.invalidValue),
        ]
        let before = try stack.currentToken()
        for (row, key, code) in cases {
            let request = BatchInsertRequest(entityName: "Team", objects: [good, good, row, good])
            let error = batchError { _ = try stack.execute(request) }
            #expect(error?.code == code, "\(row)")
            #expect(error?.rowIndex == 2)
            #expect(error?.key == key)
            #expect(error?.message.contains("row 2") == true && error?.message.contains(key) == true, "\(error?.message ?? "")")
        }
        #expect(try stack.currentToken() == before)
        #expect(try stack.storedTeams().isEmpty)
    }
}
