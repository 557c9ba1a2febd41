import CarValetApp
import FetchedResultsChecking
import Foundation
import Testing

extension CarValetTableTests {
    /// A car as the test expects the table to show it.
    private struct ExpectedCar {
        var make: String?
        var model: String?
        var year: Int16
        var dateCreated: Date

        var title: String {
            let names = [make, model].compactMap { $0 }
            return names.isEmpty ? "\(year) (make and model not set)" : ([String(year)] + names).joined(separator: " ")
        }
    }

    /// 200 seeded commands: cars added (some with the clock turned back, so they land below newer
    /// ones), edited, deleted, refused, and relaunches; each batch is checked against the table,
    /// a fresh fetch, and a model of the table kept by the test.
    @Test func aSeededRandomSessionOf200Commands() throws {
        let seed = ReplaySeed("CarValetTableTests.aSeededRandomSessionOf200Commands")
        let replay = seed.replay
        var random = SplitMix64(seed: seed.value)
        var session = try SeedAppSession<CarValet>()
        var model: [ExpectedCar] = []  // newest first
        let makes = [nil, "Ford", "Nissan", "BMW", "Honda"]
        let models = [nil, "Model T", "Leaf", "i3", "Civic"]

        for step in 0..<200 {
            var roll = Int.random(in: 0..<100, using: &random)
            // An empty table can only be added to (or refuse a change, or be relaunched).
            if model.isEmpty, (40..<90).contains(roll) { roll %= 40 }
            let row = Int.random(in: 0..<max(model.count, 1), using: &random)
            let make = makes.randomElement(using: &random) ?? nil
            let carModel = models.randomElement(using: &random) ?? nil
            let year = Bool.random(using: &random) ? Int16.random(in: 1886...2030, using: &random) : nil
            switch roll {
            case 0..<40:
                if roll < 8 { session.clock.jump(by: -Double.random(in: 0.5..<Double(step + 2), using: &random)) }
                let (added, batch) = try session.saved { try $0.addCar(make: make, model: carModel, year: year) }
                let date = session.clock.last
                let at = model.firstIndex { $0.dateCreated < date } ?? model.count
                model.insert(ExpectedCar(make: make, model: carModel, year: year ?? 1908, dateCreated: date), at: at)
                #expect(batch.summary == ["insert -→[0,\(at)]"] && added.indexPath.row == at, replay)
            case 40..<65 where make == nil && carModel == nil && year == nil:
                // An edit that sets nothing saves nothing, and the table hears nothing.
                try session.app.updateCar(at: IndexPath(row: row, section: 0))
                #expect(try session.table.applyReportedBatches().isEmpty, replay)
            case 40..<65:
                let indexPath = IndexPath(row: row, section: 0)
                let (_, batch) = try session.saved { try $0.updateCar(at: indexPath, make: make, model: carModel, year: year) }
                model[row].make = make ?? model[row].make
                model[row].model = carModel ?? model[row].model
                model[row].year = year ?? model[row].year
                #expect(batch.summary == ["update [0,\(row)]→[0,\(row)]"], replay)
            case 65..<90:
                let (deleted, batch) = try session.saved { try $0.deleteCar(at: IndexPath(row: row, section: 0)) }
                #expect(batch.summary == ["delete [0,\(row)]→-"] && deleted.title == model[row].title, replay)
                model.remove(at: row)
            case 90..<95:
                let wrong = IndexPath(row: model.count + Int.random(in: 0..<3, using: &random), section: 0)
                try session.refused({ try $0.deleteCar(at: wrong) }, with: .noSuchCar(wrong, count: model.count))
            default:
                try session.relaunch()
            }
            let titles = session.app.rows.map(\.title)
            try #require(titles == model.map(\.title), "step \(step): the table shows \(titles), expected \(model.map(\.title)); \(replay)")
        }
    }
}
