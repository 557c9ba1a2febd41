import Foundation
import OpenCoreData
import Testing

/// A batch insert on an entity with a uniqueness constraint updates the row that holds the
/// constrained values, as Core Data's does.
@Suite struct BatchInsertUpsertTests {
    private func stack(_ kind: StoreKind) throws -> HistoryStack {
        try HistoryStack(kind, model: try ConstraintFixtures.model())
    }

    /// Every stored country by code (the first of any duplicates), and how many rows there are.
    private func countries(in stack: HistoryStack) throws -> (byCode: [String: (name: String?, population: Int64)], rows: Int) {
        let context = stack.newContext()
        return try context.performAndWait {
            let countries = try context.fetch(FetchRequest<Country>(entityName: "Country"))
            return (Dictionary(countries.map { ($0.code, ($0.name, $0.population)) }, uniquingKeysWith: { first, _ in first }), countries.count)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func updatesStoredRowsAndMergesDuplicateRows(kind: StoreKind) throws {
        let stack = try stack(kind)
        let first = BatchInsertRequest(entityName: "Country", objects: [
            ["code": "FR", "name": "France", "population": 68],
            ["code": "ES", "name": "Spain", "population": 48],
        ])
        first.resultType = .objectIDs
        let firstIDs = try #require((try stack.execute(first) as? BatchInsertResult)?.result as? [ManagedObjectID])
        let before = try stack.currentToken()

        let second = BatchInsertRequest(entityName: "Country", objects: [
            ["code": "FR", "population": 69],
            ["code": "IT", "name": "Italy", "population": 59],
            ["code": "IT", "population": 58],
        ])
        second.resultType = .objectIDs
        let secondIDs = try #require((try stack.execute(second) as? BatchInsertResult)?.result as? [ManagedObjectID])
        #expect(secondIDs.count == 2, "France updated, Italy inserted once")
        #expect(secondIDs.first == firstIDs.first, "the stored France row is the one written")

        let (stored, rowCount) = try countries(in: stack)
        #expect(rowCount == 3)
        #expect(stored["FR"]?.population == 69)
        #expect(stored["FR"]?.name == "France", "values the row leaves out are kept")
        #expect(stored["ES"]?.population == 48)
        #expect(stored["IT"]?.name == "Italy" && stored["IT"]?.population == 58, "the later duplicate's values win")

        let transactions = try stack.transactions(after: before)
        try #require(transactions.count == 1)
        let changes = transactions[0].changes ?? []
        #expect(changes.filter { $0.changeType == .insert }.count == 1)
        let update = try #require(changes.first { $0.changeType == .update })
        #expect(update.changedObjectID == firstIDs[0])
        #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["code", "population"])
    }

    @Test(arguments: StoreKind.withPostgres)
    func upsertsUnderACompoundConstraint(kind: StoreKind) throws {
        let stack = try stack(kind)
        let rows: [[String: Any]] = (0..<20).map { ["home": "H\($0 % 5)", "away": "A\($0 % 2)", "round": $0] }
        let request = BatchInsertRequest(entityName: "Fixture", objects: rows)
        request.resultType = .count
        #expect((try stack.execute(request) as? BatchInsertResult)?.result as? Int == 10)
        _ = try stack.execute(BatchInsertRequest(entityName: "Fixture", objects: rows.map { row in row.merging(["score": "1-0"]) { $1 } }))
        let context = stack.newContext()
        let fixtures = try context.performAndWait { try context.fetch(FetchRequest<Fixture>(entityName: "Fixture")) }
        try context.performAndWait {
            #expect(fixtures.count == 10)
            for fixture in fixtures {
                let home = try #require(Int(fixture.home.dropFirst()))
                let away = try #require(Int(fixture.away.dropFirst()))
                // The last of the rows 0..<20 with these keys: the largest n with n % 5 == home, n % 2 == away.
                let last = (0..<20).last { $0 % 5 == home && $0 % 2 == away }
                #expect(Int(fixture.round) == last)
                #expect(fixture.score == "1-0")
            }
        }
    }
}
