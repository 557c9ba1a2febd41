#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

extension ManagedObjectModel {
    /// The model a PostgreSQL store records, as `ManagedObjectModel(storedIn:)` rebuilds an
    /// SQLite store's: for a program that reads a store without the classes of the app that made
    /// it (the `ocd` tool). Open the store read-only with it.
    ///
    /// - Parameter url: The store's `postgres://` URL.
    /// - Throws: ``PersistentStoreError``: ``PersistentStoreError/invalidStoreURL`` for a wrong
    ///   URL, ``PersistentStoreError/cannotOpen`` when the server cannot be reached,
    ///   ``PersistentStoreError/invalidStoreFile`` when the URL's schema holds no store,
    ///   ``PersistentStoreError/corruptStore`` when its metadata cannot be read or rebuilt into a
    ///   model.
    package convenience init(storedInPostgres url: String) throws {
        let description = try PersistentStoreDescription(postgres: url)
        description.isReadOnly = true
        let backend = try PostgresStoreBackend(description: description)
        defer { backend.close() }
        let schema = backend.url.schema
        let metadata = try backend.pool.withConnection("reading the store's model", retryingIfLost: true) { connection in
            let table = "\(quoted(schema)).\(quoted(PostgresSchema.metadataTable))"
            let found = try connection.query("SELECT to_regclass(\(table)) IS NOT NULL").first?.decode(Bool.self) ?? false
            guard found else {
                throw PersistentStoreError(
                    PersistentStoreError.invalidStoreFile,
                    "the schema '\(schema)' holds no OpenCoreData store (it has no \(PostgresSchema.metadataTable) table)",
                    url: backend.errorURL)
            }
            return try backend.readMetadata(connection, table: table)
        }
        try self.init(recordedIn: metadata, url: backend.errorURL)
    }
}
#endif
