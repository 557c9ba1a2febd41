import Foundation
import OpenCoreData
import Testing

/// A predicate beyond SQLite's limits (an `IN` list of more values than a statement binds) is
/// left to memory by the SQLite store: batch requests evaluate it on the rows' attributes, and
/// refuse a part that follows a relationship.
@Suite struct BatchPredicateInMemoryTests {
    /// More names than SQLite binds in one statement, two of them stored.
    private let names = ["Spain", "France"] + (0..<40_000).map { "Nowhere \($0)" }

    @Test(arguments: StoreKind.withPostgres)
    func updatesAndDeletesByAPredicateLeftToMemory(kind: StoreKind) throws {
        let stack = try HistoryStack(kind)
        for name in ["Spain", "France", "Chile", "Japan"] { try stack.insertTeam(name) }
        let update = BatchUpdateRequest(entityName: "Team")
        update.predicate = try FetchPredicate(format: "teamName IN %@", names)
        update.propertiesToUpdate = ["wins": 4]
        update.resultType = .updatedObjectsCountResultType
        #expect((try stack.execute(update) as? BatchUpdateResult)?.result as? Int == 2)
        #expect(try stack.storedTeams().mapValues(\.wins) == ["Spain": 4, "France": 4, "Chile": 0, "Japan": 0])

        let fetch = FetchRequest<Team>(entityName: "Team")
        fetch.predicate = try FetchPredicate(format: "teamName IN %@", names)
        fetch.fetchLimit = 1
        let delete = BatchDeleteRequest(fetchRequest: fetch)
        delete.resultType = .resultTypeCount
        #expect((try stack.execute(delete) as? BatchDeleteResult)?.result as? Int == 1, "the limit applies after the predicate")
        #expect(try stack.storedTeams().count == 3)
    }

    @Test func refusesAPartLeftToMemoryThatFollowsARelationship() throws {
        let stack = try HistoryStack(.sqlite)
        for name in ["Spain", "Chile"] { try stack.insertTeam(name) }
        let update = BatchUpdateRequest(entityName: "Team")
        update.predicate = try FetchPredicate(format: "teamName IN %@ OR coach.name == 'Bielsa'", names)
        update.propertiesToUpdate = ["wins": 4]
        let before = try stack.currentToken()
        let error = batchError { _ = try stack.execute(update) }
        #expect(error?.code == BatchRequestError.invalidRequest)
        #expect(error?.message.contains("'coach'") == true, "\(error?.message ?? "")")
        #expect(try stack.currentToken() == before)
    }
}
