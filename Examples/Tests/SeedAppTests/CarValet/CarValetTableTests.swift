import CarValetApp
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// CarValet (seed 002): cars added at the top of the table, newest first by creation date, with a
/// year of 1908 until edited; edited in the detail view; deleted with a swipe. Each change is
/// saved at once and reaches the table only through the controller's delegate, so the table and
/// its data source always agree: every batch is applied to the table's rows with UIKit's rules,
/// row counts checked, and compared with a fresh fetch.
@Suite struct CarValetTableTests {
    @Test func aNewCarIsFrom1908AndGoesOnTop() throws {
        let session = try SeedAppSession<CarValet>()
        let entity = try #require(session.entity)
        #expect(entity.attributesByName["year"]?.defaultValue as? Int16 == 1908)

        let first = try session.saved { try $0.addCar() }
        #expect(first.row.year == 1908 && first.row.make == nil && first.row.model == nil)
        #expect(first.row.description == "1. 1908 (make and model not set)")
        let second = try session.saved { try $0.addCar(make: "Ford", model: "Model T", year: 1927) }
        #expect([first.changes.summary, second.changes.summary] == [["insert -→[0,0]"], ["insert -→[0,0]"]])

        let fresh = session.container.newBackgroundContext()
        let stored = try fresh.performAndWait { try fresh.fetch(CarValet.fetchRequest()).map { ($0.year, $0.dateCreated) } }
        #expect(stored.map(\.0) == [1927, 1908])
        #expect(stored.map(\.1) == stored.map(\.1).sorted(by: >), "newest first")
    }

    /// The seed's session once fixed: cars added, one changed to a BMW, one deleted.
    @Test func theSeedsSession() throws {
        let session = try SeedAppSession<CarValet>()
        var changes: [[String]] = []
        for (make, model) in [("Ford", "Model T"), ("Nissan", "Leaf"), ("Honda", "Civic")] {
            changes.append(try session.saved { try $0.addCar(make: make, model: model) }.changes.summary)
        }
        let edited = try session.saved { try $0.updateCar(at: IndexPath(row: 1, section: 0), make: "BMW", model: "i3", year: 2014) }
        #expect(edited.row.description == "2. 2014 BMW i3")
        let deleted = try session.saved { try $0.deleteCar(at: IndexPath(row: 2, section: 0)) }
        #expect(deleted.row.description == "3. 1908 Ford Model T")
        changes += [edited.changes.summary, deleted.changes.summary]

        #expect(changes == [["insert -→[0,0]"], ["insert -→[0,0]"], ["insert -→[0,0]"],
                            ["update [0,1]→[0,1]"], ["delete [0,2]→-"]])
        #expect(session.app.rows.map(\.description) == ["1. 1908 Honda Civic", "2. 2014 BMW i3"])
    }

    /// The seed's crash: its actions updated the table themselves and the delegate updated it
    /// again. With the controller's batch applied, the seed's own `deleteRows`/`insertRows` is
    /// the update UIKit rejects, with the seed's message.
    @Test func updatingTheTableTwiceIsTheSeedsInvalidUpdate() throws {
        let session = try SeedAppSession<CarValet>()
        for _ in 0..<4 { try session.saved { try $0.addCar() } }

        let doomed = IndexPath(row: 1, section: 0)
        try session.saved { try $0.deleteCar(at: doomed) }
        var seedsDelete = ListBatch<ManagedObjectID>()
        seedsDelete.deleteRow(at: doomed)
        #expect(throws: BatchUpdateError("""
            Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after \
            the update (3) must be equal to the number of rows contained in that section before the update (3), plus or \
            minus the number of rows inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the \
            number of rows moved into or out of that section (0 moved in, 0 moved out).
            """)) {
            try session.table.rows.applying(seedsDelete, dataSource: try session.table.fetched())
        }

        let added = try session.saved { try $0.addCar() }
        var seedsInsert = ListBatch<ManagedObjectID>()
        seedsInsert.insertRow(at: IndexPath(row: 0, section: 0), item: added.row.objectID)
        let rejected = #expect(throws: BatchUpdateError.self) {
            try session.table.rows.applying(seedsInsert, dataSource: try session.table.fetched())
        }
        #expect(rejected?.message.hasPrefix("Invalid update: invalid number of rows in section 0") == true)
        #expect(rejected?.message.contains("after the update (4) must be equal to the number of rows contained in that section before the update (4)") == true)
    }

    @Test func refusedChangesReportAndSaveNothing() throws {
        let session = try SeedAppSession<CarValet>()
        let top = IndexPath(row: 0, section: 0)
        try session.refused({ try $0.deleteCar(at: top) }, with: .noSuchCar(top, count: 0))
        try session.saved { try $0.addCar() }
        for wrong in [IndexPath(row: 1, section: 0), IndexPath(row: -1, section: 0), IndexPath(row: 0, section: 1), IndexPath(index: 0)] {
            try session.refused({ try $0.deleteCar(at: wrong) }, with: .noSuchCar(wrong, count: 1))
            try session.refused({ try $0.updateCar(at: wrong, make: "BMW") }, with: .noSuchCar(wrong, count: 1))
        }
        #expect(session.app.rows.map(\.description) == ["1. 1908 (make and model not set)"])
    }
}
