#if Postgres
import FetchedResultsChecking
import Foundation
import OpenCoreData
import PostgresNIO

/// Scenario 6 on PostgreSQL: `count` new teams in one save into an empty store, against the same
/// rows in one multi-row `INSERT … SELECT FROM unnest(…)` transaction into an empty table of the
/// same shape and indexes, through postgres-nio.
struct PostgresInsertScenario {
    let server: String
    let count: Int
    let runs: Int

    private static let oursSchema = "ocd_bench_insert"
    private static let rawSchema = "ocd_bench_raw_insert"

    func run() throws -> Figure {
        let raw = try RawPostgres(server: server)
        defer { raw.close() }
        var ours = Samples(), baseline = Samples()
        for _ in 0..<runs {
            try raw.query(#"DROP SCHEMA IF EXISTS "\#(Self.oursSchema)" CASCADE"#)
            ours.add(try insertThroughContext())
            baseline.add(try insertRaw(raw))
        }
        return Figure("6. insert \(count) objects in one save, PostgreSQL", rows: count, samples: ours,
                      baseline: ("one unnest INSERT transaction (postgres-nio)", baseline), target: "≤ 2× baseline")
    }

    private func insertThroughContext() throws -> Double {
        try InsertScenario.insertTeams(count, into: try PostgresDataSet.openContainer(
            storeURL: PostgresDataSet.url(server, schema: Self.oursSchema)))
    }

    /// The store's table shape: key, entity and version columns, text in code-point order,
    /// dates as double precision, and the model's index.
    private func insertRaw(_ raw: RawPostgres) throws -> Double {
        let schema = Self.rawSchema
        for statement in [
            #"DROP SCHEMA IF EXISTS "\#(schema)" CASCADE"#, #"CREATE SCHEMA "\#(schema)""#,
            #"""
            CREATE TABLE "\#(schema)"."Team" ("_pk" bigint NOT NULL PRIMARY KEY, "_entity" bigint NOT NULL,
              "_version" bigint NOT NULL, "name" text COLLATE "C", "zone" text COLLATE "C", "wins" bigint,
              "created" double precision)
            """#,
            #"""
            CREATE INDEX "Team_byZoneWinsName" ON "\#(schema)"."Team"
              ("zone" ASC NULLS FIRST, "wins" DESC NULLS LAST, "name" ASC NULLS FIRST)
            """#,
        ] { try raw.query(statement) }
        var generator = SplitMix64(seed: 6)
        var names: [String] = [], zones: [String] = [], wins: [Int64] = [], created: [Double] = []
        let start = now()
        for number in 0..<count {
            names.append("Team " + String(number))
            zones.append(Team.zones[Int(generator.next() % UInt64(Team.zones.count))])
            wins.append(Int64(generator.next() % 1000))
            created.append(1_700_000_000 + Double(number) - 978_307_200)
        }
        var bindings = PostgresBindings()
        bindings.append(names)
        bindings.append(zones)
        bindings.append(wins)
        bindings.append(created)
        try raw.query("BEGIN")
        try raw.query(#"""
            INSERT INTO "\#(schema)"."Team" ("_pk", "_entity", "_version", "name", "zone", "wins", "created")
            SELECT n, 1, 1, name, zone, wins, created
            FROM unnest($1::text[], $2::text[], $3::bigint[], $4::float8[]) WITH ORDINALITY AS t(name, zone, wins, created, n)
            """#, bindings)
        try raw.query("COMMIT")
        return milliseconds(now() - start)
    }
}
#endif
