#if Postgres
import Foundation
import PostgresNIO

/// Scenario 1's floor on PostgreSQL: the ordered keys from the sort index and the section
/// counts, straight through postgres-nio, each key decoded as its row arrives.
struct PostgresFloor {
    let dataSet: PostgresDataSet

    func samples(runs: Int) throws -> Samples {
        let raw = try RawPostgres(server: dataSet.server, schema: dataSet.schema)
        defer { raw.close() }
        var samples = Samples()
        for run in 0...runs {
            let keys = KeyCollector()
            let start = now()
            try raw.forEachRow(Team.postgresOrderedKeysSQL) { row in keys.append(try row.decode(Int64.self)) }
            let sections = try raw.query(Team.sectionCountsSQL)
            let elapsed = now() - start
            guard keys.count == dataSet.rows, sections.rows.count > 0 else {
                throw BenchError(description: "the floor read \(keys.count) of \(dataSet.rows) rows")
            }
            if run > 0 { samples.add(milliseconds(elapsed)) }  // the first run warms the server's buffers
        }
        return samples
    }
}

/// Keys appended on the connection's event loop, read once the query's future has completed.
final class KeyCollector: @unchecked Sendable {
    private(set) var keys: [Int64] = []
    func append(_ key: Int64) { keys.append(key) }
    var count: Int { keys.count }
}
#endif
