#if Postgres
import Foundation
import OpenCoreData
import OpenCoreDataPostgres

/// `rows` teams in a schema of their own (`ocd_bench_ROWS`) on the server `--store` names, built
/// once and reused by later runs, as `--data` keeps SQLite data sets.
struct PostgresDataSet: TeamStore {
    let rows: Int
    /// The server's URL, without a schema.
    let server: String

    var schema: String { "ocd_bench_\(rows)" }

    /// The store's URL: the server's, in the data set's schema.
    var storeURL: String { Self.url(server, schema: schema) }

    static func url(_ server: String, schema: String) -> String {
        server + (server.contains("?") ? "&" : "?") + "schema=\(schema)"
    }

    static func isURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    func makeContainer() throws -> PersistentContainer { try Self.openContainer(storeURL: storeURL) }

    /// A container on the PostgreSQL store at `storeURL`; `history` as ``DataSet/openContainer(at:history:)``.
    static func openContainer(storeURL: String, history: Bool? = nil) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "ocd-bench", managedObjectClasses: [Team.self])
        let description = try PersistentStoreDescription(postgres: storeURL)
        if let history { description.isPersistentHistoryTrackingEnabled = history }
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Fills the schema unless it already holds exactly `rows` teams; one holding anything else
    /// is dropped and built again, with the same teams as the SQLite data set of that size.
    func build() throws {
        let raw = try RawPostgres(server: server)
        defer { raw.close() }
        let existing = try raw.query("""
            SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name = 'Team'
            """).first.map { try $0.decode(Int.self) } ?? 0
        if existing == 1,
           try raw.query(#"SELECT count(*) FROM "\#(schema)"."Team""#).first.map({ try $0.decode(Int.self) }) == rows {
            progress("data set of \(rows) rows: reusing schema \(schema)")
            return
        }
        _ = try raw.query(#"DROP SCHEMA IF EXISTS "\#(schema)" CASCADE"#)
        let start = now()
        try DataSet.fill(try makeContainer(), rows: rows)
        _ = try raw.query(#"VACUUM ANALYZE "\#(schema)"."Team""#)
        progress(String(format: "data set of %d rows built in schema %@ in %.1f s", rows, schema, milliseconds(now() - start) / 1000))
    }
}
#endif
