import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenario 6: inserting `count` new teams in one save into an empty store, against inserting
/// the same rows into an empty table of the same shape in one GRDB transaction.
struct InsertScenario {
    let directory: URL
    let count: Int
    let runs: Int

    func run() throws -> Figure {
        var ours = Samples(), raw = Samples()
        for _ in 0..<runs {
            ours.add(try insertThroughContext())
            raw.add(try insertThroughGRDB())
        }
        return Figure("6. insert \(count) objects in one save", rows: count, samples: ours,
                      baseline: ("one GRDB transaction", raw), target: "≤ 2× baseline (≥ 0.5× its speed)")
    }

    private func freshFile(_ name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        DataSet.removeStore(at: url)
        return url
    }

    /// One save of `count` new teams into a new store; `history` turns persistent history on or
    /// off (nil: the default, on).
    func insertThroughContext(history: Bool? = nil) throws -> Double {
        let dataSet = DataSet(rows: count, directory: directory)
        _ = freshFile(dataSet.url.lastPathComponent)
        return try Self.insertTeams(count, into: try dataSet.openContainer(history: history))
    }

    /// The time, in milliseconds, to make `count` new teams in a context of `container` and
    /// save them in one save.
    static func insertTeams(_ count: Int, into container: PersistentContainer) throws -> Double {
        let context = container.newBackgroundContext()
        var generator = SplitMix64(seed: 6)
        return try context.performAndWait { () throws -> Double in
            let start = now()
            for number in 0..<count { DataSet.insertTeam(number: number, into: context, using: &generator) }
            try context.save()
            return milliseconds(now() - start)
        }
    }

    func insertThroughGRDB() throws -> Double {
        let database = try DatabaseQueue(path: freshFile("raw-insert.sqlite").path, configuration: DataSet.rawConfiguration)
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: """
                CREATE TABLE "Team" ("_pk" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "zone" TEXT NOT NULL,
                                     "wins" INTEGER NOT NULL, "created" REAL NOT NULL);
                CREATE INDEX "Team_zone" ON "Team" ("zone");
                CREATE INDEX "Team_byZoneWinsName" ON "Team" ("zone", "wins" DESC, "name");
                """)
        }
        var generator = SplitMix64(seed: 6)
        let start = now()
        try database.write { db in
            let statement = try db.makeStatement(sql: #"INSERT INTO "Team" ("name", "zone", "wins", "created") VALUES (?, ?, ?, ?)"#)
            for number in 0..<count {
                let zone = Team.zones[Int(generator.next() % UInt64(Team.zones.count))]
                let wins = Int64(generator.next() % 1000)
                try statement.execute(arguments: ["Team " + String(number), zone, wins, 1_700_000_000 + Double(number)])
            }
        }
        return milliseconds(now() - start)
    }
}
