import Foundation
import GRDB
import OpenCoreData

/// Scenario 11l: the resident memory each materialised object adds (every attribute read, the
/// objects and their context held), beside GRDB's class records of the same rows held in an array.
struct EverydayMemory {
    let dataSet: EverydayDataSet
    let container: PersistentContainer
    let pool: DatabasePool

    func run() throws -> Figure {
        var ours = Samples(), grdb = Samples()
        for _ in 0..<3 {
            ours.add(try bytesPerObject())
            grdb.add(try bytesPerRecord())
        }
        return Figure("11l. resident memory per materialised object", rows: dataSet.rows, samples: ours, unit: "bytes/object",
                      baseline: ("GRDB class records in an array", grdb), target: "≤ 2× baseline")
    }

    private func bytesPerObject() throws -> Double {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> Double in
            let before = ResidentMemory.bytes()
            let players = try context.fetch(Player.fetchRequest())
            var sum = 0
            for player in players {
                sum &+= playerChecksum(name: player.name, position: player.position, number: player.number,
                                       rating: player.rating, born: player.born)
            }
            let after = ResidentMemory.bytes()
            try EverydayComparison.check(players.count, dataSet.rows, "players held")
            return withExtendedLifetime(players) { Double(after - before) / Double(dataSet.rows) }
        }
    }

    private func bytesPerRecord() throws -> Double {
        let before = ResidentMemory.bytes()
        let records = try pool.read { db in try PlayerRecord.fetchAll(db, sql: EverydaySQL.allPlayers) }
        var sum = 0
        for record in records { sum &+= record.checksum }
        let after = ResidentMemory.bytes()
        try EverydayComparison.check(records.count, dataSet.rows, "records held")
        return withExtendedLifetime(records) { Double(after - before) / Double(dataSet.rows) }
    }
}
