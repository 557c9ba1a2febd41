import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenario 11's writes, one object a save (one transaction each), beside GRDB's record API:
/// the library on a copy of the data set, GRDB on another copy without the library's triggers.
/// The library's context lives across saves, as an app's does, with the objects it changes
/// already fetched; GRDB's records are likewise fetched before the clock starts.
struct EverydayWrites {
    let dataSet: EverydayDataSet
    let runs: Int
    let scratch: URL
    /// Whether the library's store records persistent history (on, as by default, in the figures).
    var history = true

    static let repetitions = 100

    func run() throws -> [Figure] {
        let ours = scratch.appendingPathComponent("everyday-ours.sqlite")
        let theirs = scratch.appendingPathComponent("everyday-grdb.sqlite")
        try dataSet.copy(to: ours, forGRDB: false)
        try dataSet.copy(to: theirs, forGRDB: true)
        defer { for url in [ours, theirs] { DataSet.removeStore(at: url) } }
        let container = try dataSet.openContainer(at: ours, history: history)
        let context = container.newBackgroundContext()
        let pool = try DatabasePool(path: theirs.path, configuration: DataSet.rawConfiguration)
        let comparison = EverydayComparison(rows: dataSet.rows, runs: runs)
        // Each run changes, inserts or deletes its own players: runs + 1 (the untimed one) of them.
        let perRun = Self.repetitions, needed = (runs + 1) * perRun
        var generator = SplitMix64(seed: 1111)
        let (players, clubs, names) = try context.performAndWait { () throws -> ([Player], [Club], [String]) in
            let request = Player.fetchRequest()
            request.fetchLimit = needed
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let clubRequest = Club.fetchRequest()
            clubRequest.fetchLimit = 10
            let players = try context.fetch(request)
            return (players, try context.fetch(clubRequest), players.map(\.name))
        }
        let records = try pool.read { db in
            try PlayerRecord.fetchAll(db, sql: EverydaySQL.allPlayers + #" ORDER BY "name" LIMIT ?"#, arguments: [needed])
        }
        try EverydayComparison.check(names, records.map(\.name), "players to change")
        let entityCodes = try pool.read { db in
            try Row.fetchOne(db, sql: #"SELECT "_entity", "_club_entity" FROM "Player" WHERE "club" IS NOT NULL LIMIT 1"#)
        }
        guard let entityCodes else { throw BenchError(description: "no player with a club") }
        let clubEntity: Int64 = entityCodes["_club_entity"], playerEntity: Int64 = entityCodes["_entity"]

        var run = 0, grdbRun = 0
        let change = try comparison.figure("11g. change one attribute of one object, save", target: "≤ 1.5× baseline", ours: {
            defer { run += 1 }
            return try context.performAndWait {
                try EverydayComparison.perCall(perRun) { call in
                    players[run * perRun + call].rating += 1
                    try context.save()
                }
            }
        }, grdb: {
            defer { grdbRun += 1 }
            return try EverydayComparison.perCall(perRun) { call in
                let record = records[grdbRun * perRun + call]
                record.rating += 1
                try pool.write { db in try record.update(db, columns: ["rating"]) }
            }
        })

        var inserted = 0, grdbInserted = 0
        let insert = try comparison.figure("11h. insert one object, save", target: "≤ 1.5× baseline", ours: {
            try context.performAndWait {
                try EverydayComparison.perCall(perRun) { _ in
                    EverydayDataSet.insertPlayer(number: dataSet.rows + inserted, place: 0, club: clubs[inserted % clubs.count],
                                                 into: context, using: &generator)
                    inserted += 1
                    try context.save()
                }
            }
        }, grdb: {
            try EverydayComparison.perCall(perRun) { _ in
                let record = PlayerRecord(name: "Player \(dataSet.rows + grdbInserted)", position: "Forward", number: 1,
                                          rating: Double(generator.next() % 10_000) / 100, born: Date(), club: Int64(1 + grdbInserted % 10))
                record.entity = playerEntity
                record.clubEntity = clubEntity
                grdbInserted += 1
                try pool.write { db in try record.insert(db) }
            }
        })

        run = 0
        grdbRun = 0
        let delete = try comparison.figure("11i. delete one object, save", target: "≤ 1.5× baseline", ours: {
            defer { run += 1 }
            return try context.performAndWait {
                try EverydayComparison.perCall(perRun) { call in
                    context.delete(players[run * perRun + call])
                    try context.save()
                }
            }
        }, grdb: {
            defer { grdbRun += 1 }
            return try EverydayComparison.perCall(perRun) { call in
                let record = records[grdbRun * perRun + call]
                _ = try pool.write { db in try record.delete(db) }
            }
        })
        let remaining = try context.performAndWait { try context.count(for: Player.fetchRequest()) }
        try EverydayComparison.check(remaining, dataSet.rows, "players left after inserting and deleting as many")
        return [change, insert, delete]
    }
}
