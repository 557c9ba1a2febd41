import OpenCoreData

/// A store of `rows` teams that scenarios open afresh for each run: a SQLite data set
/// (``DataSet``) or, with the `Postgres` trait, a schema on a PostgreSQL server
/// (`PostgresDataSet`). The scenarios that run on both take one of these.
protocol TeamStore {
    var rows: Int { get }

    /// A container on the store, as after a relaunch.
    func makeContainer() throws -> PersistentContainer
}

extension DataSet: TeamStore {
    func makeContainer() throws -> PersistentContainer { try openContainer() }
}
