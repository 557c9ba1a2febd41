import Foundation
import OpenCoreData
import Testing

@Suite struct BatchUpdateExpressionTests {
    private func stack(_ kind: StoreKind, wins: [String: Int16]) throws -> HistoryStack {
        let stack = try HistoryStack(kind)
        for (name, count) in wins.sorted(by: { $0.key < $1.key }) {
            try stack.insertTeam(name, zone: name == "Chile" ? "CONMEBOL" : "UEFA", wins: count)
        }
        return stack
    }

    private func update(_ properties: [String: Any], zone: String = "UEFA") throws -> BatchUpdateRequest {
        let request = BatchUpdateRequest(entityName: "Team")
        request.predicate = try FetchPredicate(format: "qualifyingZone == %@", zone)
        request.propertiesToUpdate = properties
        return request
    }

    /// Each expression, applied to rows of several values, gives what Swift computes.
    @Test(arguments: StoreKind.withPostgres)
    func computesEachRowFromItsOwnValues(kind: StoreKind) throws {
        let start: [String: Int16] = ["Spain": 0, "France": 7, "Italy": -3, "Chile": 5]
        let table: [(format: String, expected: (Int16) -> Int16)] = [
            ("wins + 1", { $0 + 1 }), ("wins - 2", { $0 - 2 }), ("wins * 3", { $0 * 3 }), ("wins / 2", { $0 / 2 }), ("wins", { $0 }),
        ]
        for (format, expected) in table {
            let stack = try stack(kind, wins: start)
            _ = try stack.execute(try update(["wins": try BatchUpdateExpression(format: format)]))
            let teams = try stack.storedTeams()
            for (name, wins) in start {
                #expect(teams[name]?.wins == (name == "Chile" ? wins : expected(wins)), "\(format) on \(name)")
            }
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func copiesAnotherAttributeAndMixesWithConstants(kind: StoreKind) throws {
        let stack = try stack(kind, wins: ["Spain": 1, "Chile": 2])
        _ = try stack.execute(try update(["imageName": BatchUpdateExpression.keyPath("teamName"),
                                          "wins": BatchUpdateExpression(key: "wins", .add, 10)]))
        let teams = try stack.storedTeams()
        #expect(teams["Spain"]?.imageName == "Spain")
        #expect(teams["Spain"]?.wins == 11)
        #expect(teams["Chile"]?.imageName == nil && teams["Chile"]?.wins == 2)
    }

    /// A result out of the attribute's range refuses the request before any row is written.
    @Test(arguments: StoreKind.withPostgres)
    func refusesAResultTheAttributeCannotHold(kind: StoreKind) throws {
        let stack = try stack(kind, wins: ["Spain": 1, "France": Int16.max])
        let before = try stack.currentToken()
        for format in ["wins + 1", "wins * 2", "wins / 0", "wins + 0.5", "teamName + 1"] {
            let key = format.hasPrefix("teamName") ? "imageName" : "wins"
            let error = batchError { _ = try stack.execute(try update([key: try BatchUpdateExpression(format: format)])) }
            #expect(error?.code == BatchRequestError.invalidValue, "\(format): \(error?.message ?? "")")
            #expect(error?.key == key)
            #expect(error?.message.contains(format) == true, "\(error?.message ?? "")")
        }
        #expect(try stack.currentToken() == before)
        #expect(try stack.storedTeams().mapValues(\.wins) == ["Spain": 1, "France": Int16.max])
    }

    @Test func refusesTextThatIsNotAnExpression() {
        for format in ["", "wins +", "wins + x", "wins ^ 2", "1 + wins", "wins+1", "wins + 1 + 2", "wins + nan"] {
            #expect(throws: BatchRequestError.self, "\(format)") { try BatchUpdateExpression(format: format) }
        }
        #expect((try? BatchUpdateExpression(format: "wins - 2.5"))?.description == "wins - 2.5")
    }
}
