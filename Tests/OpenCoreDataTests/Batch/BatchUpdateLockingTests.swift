import Foundation
@testable import OpenCoreData
import Testing

/// What other writers rely on after a batch update, whichever way the store wrote it: each row's
/// version advanced (a context saving an object it read before meets an optimistic locking
/// conflict instead of overwriting the batch's values), uniqueness constraints enforced, and
/// integer overflow refused rather than trapped.
@Suite struct BatchUpdateLockingTests {
    @Test(arguments: [false, true])
    func aContextThatReadTheRowBeforeMeetsAConflict(rowByRow: Bool) throws {
        let stack = try HistoryStack(.sqlite)
        let spain = try stack.insertTeam("Spain", wins: 3)
        let view = stack.newContext()
        // Held, so that the context keeps the row as it read it.
        let team = try view.performAndWait { try #require(try view.existingObject(with: spain) as? Team) }
        #expect(view.performAndWait { team.wins } == 3)

        let request = BatchUpdateRequest(entityName: "Team")
        request.propertiesToUpdate = ["wins": try BatchUpdateExpression(format: "wins + 1")]
        request.writesRowByRow = rowByRow
        let result = try #require(try stack.execute(request) as? BatchUpdateResult)
        #expect(result.wasSetBased == !rowByRow)

        try view.performAndWait {
            team.imageName = "spain.png"
            do {
                try view.save()
                Issue.record("the save overwrote the batch update's row without a conflict")
            } catch let error as ObjectGraphError {
                #expect(error.code == ObjectGraphError.mergeConflict)
                #expect(error.conflicts.first?.objectVersion == 1 && error.conflicts.first?.storeVersion == 2)
            }
            // Store trump: the batch's wins stay, the context's image name is added.
            view.mergePolicy = .mergeByPropertyStoreTrump
            try view.save()
        }
        #expect(try stack.storedTeams()["Spain"]?.wins == 4)
        #expect(try stack.storedTeams()["Spain"]?.imageName == "spain.png")
    }

    /// Results beyond an `Int64` (the division of `Int64.min` by -1 trapped before it was
    /// checked) are refused, naming the key, and nothing is written.
    @Test(arguments: ["int64 / -1", "int64 * -1", "int64 - 1"])
    func refusesAnOverflowingResult(format: String) throws {
        let stack = try HistoryStack(.sqlite)
        try stack.save { context in
            let sample = Sample(context: context)
            sample.int64 = .min
        }
        let before = try stack.currentToken()
        for rowByRow in [false, true] {
            let request = BatchUpdateRequest(entityName: "Sample")
            request.propertiesToUpdate = ["int64": try BatchUpdateExpression(format: format)]
            request.writesRowByRow = rowByRow
            let error = batchError { _ = try stack.execute(request) }
            #expect(error?.code == BatchRequestError.invalidValue, "\(format): \(error?.message ?? "")")
            #expect(error?.key == "int64")
        }
        #expect(try stack.currentToken() == before)
    }

    /// Setting a constrained attribute is left to the row by row update, which reports the
    /// conflict with the stored row holding the value; other attributes of a constrained entity
    /// are written by the statement.
    @Test func constrainedAttributesAreCheckedRowByRow() throws {
        let stack = try HistoryStack(.sqlite, model: try ConstraintFixtures.model())
        try stack.save { context in
            for code in ["FR", "ES"] {
                let country = Country(context: context)
                country.code = code
            }
        }
        let population = BatchUpdateRequest(entityName: "Country")
        population.propertiesToUpdate = ["population": try BatchUpdateExpression(format: "population + 10")]
        #expect((try stack.execute(population) as? BatchUpdateResult)?.wasSetBased == true)

        let code = BatchUpdateRequest(entityName: "Country")
        code.predicate = try FetchPredicate(format: "code == 'FR'")
        code.propertiesToUpdate = ["code": "ES"]
        let before = try stack.currentToken()
        let error = batchError { _ = try stack.execute(code) }
        #expect(error?.code == BatchRequestError.invalidRequest)
        #expect(error?.message.contains("uniqueness constraint") == true, "\(error?.message ?? "")")
        #expect(try stack.currentToken() == before)
    }
}
