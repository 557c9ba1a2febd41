#if Postgres
import FetchedResultsChecking
import Foundation
import PostgresNIO

/// The baseline of scenarios 3 and 4 on PostgreSQL, as a postgres-nio user keeps a list up to
/// date without the library: the writer commits its `UPDATE` with a `NOTIFY`; a listening
/// connection refetches the ordered rows with their sort keys when notified and diffs them
/// against the previous ones with `difference(from:)`.
struct PostgresRefetchAndDiff {
    let dataSet: PostgresDataSet
    static let channel = "ocd_bench_refetch"

    /// The time from the start of the write transaction changing `changed` rows to the
    /// difference being computed, over `runs` runs.
    func run(changed: Int, runs: Int) throws -> Samples {
        let writer = try RawPostgres(server: dataSet.server, schema: dataSet.schema)
        let reader = try RawPostgres(server: dataSet.server, schema: dataSet.schema)
        defer { writer.close(); reader.close() }
        let notified = DispatchSemaphore(value: 0)
        reader.connection.addListener(channel: Self.channel) { _, _ in notified.signal() }
        // Answered once the LISTEN before it is in force.
        try reader.query("SELECT 1")
        var previous = try fetchRows(reader)
        let keys = previous.map(\.key)
        var generator = SplitMix64(seed: UInt64(changed) &* 31)
        var samples = Samples()
        for _ in 0..<runs {
            var chosen = Set<Int64>()
            while chosen.count < changed { chosen.insert(keys[Int(generator.next() % UInt64(keys.count))]) }
            let steps = chosen.map { _ in Int64(1 + generator.next() % 999) }
            var bindings = PostgresBindings()
            bindings.append(Array(chosen))
            bindings.append(steps)
            let start = now()
            try writer.query("BEGIN")
            try writer.query("""
                UPDATE "Team" SET "wins" = ("wins" + s.step) % 1000 FROM unnest($1::bigint[], $2::bigint[]) AS s(pk, step) \
                WHERE "_pk" = s.pk
                """, bindings)
            try writer.query("SELECT pg_notify('\(Self.channel)', '')")
            try writer.query("COMMIT")
            guard notified.wait(timeout: .now() + 60) == .success else { throw BenchError(description: "no notification") }
            let rows = try fetchRows(reader)
            guard !rows.difference(from: previous).isEmpty else { throw BenchError(description: "the refetch saw no change") }
            samples.add(milliseconds(now() - start))
            previous = rows
        }
        return samples
    }

    private func fetchRows(_ connection: RawPostgres) throws -> [RefetchAndDiff.KeyedRow] {
        let collected = RowCollector()
        try connection.forEachRow(Team.postgresOrderedRowsSQL) { row in
            let (key, zone, wins, name) = try row.decode((Int64, String, Int64, String).self)
            collected.rows.append(RefetchAndDiff.KeyedRow(key: key, zone: zone, wins: Int32(wins), name: name))
        }
        return collected.rows
    }

    /// Rows appended on the connection's event loop, read once the query's future has completed.
    private final class RowCollector: @unchecked Sendable {
        var rows: [RefetchAndDiff.KeyedRow] = []
    }
}
#endif
