package import Foundation

extension ManagedObjectModel {
    /// The model an SQLite store records: rebuilt from the schema, name and version identifiers in
    /// the store's metadata, for a program that reads a store without the classes of the app that
    /// made it (the `ocd` tool).
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(storedIn: url)
    /// let container = PersistentContainer(name: "ocd", managedObjectModel: model)
    /// let description = PersistentStoreDescription(url: url)
    /// description.isReadOnly = true
    /// container.persistentStoreDescriptions = [description]
    /// try container.loadPersistentStores()
    /// ```
    ///
    /// The store is opened read-only, and nothing is written to it. The model has the store's
    /// entities with ``ManagedObject`` as their class, and what the store records of them (see
    /// `ModelSchema.makeModel`): enough to fetch and follow relationships, not to insert objects
    /// as the app would. Open the store read-only with it: a writable store reconciles its indexes
    /// with the opening model, and this one has none.
    ///
    /// - Parameter url: The store's file.
    /// - Throws: ``PersistentStoreError``: ``PersistentStoreError/cannotOpen`` for a missing or
    ///   unreadable file, ``PersistentStoreError/invalidStoreFile`` for a file that is not a
    ///   database or not a store, ``PersistentStoreError/corruptStore`` when its metadata cannot
    ///   be read or rebuilt into a model.
    package convenience init(storedIn url: URL) throws {
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        let backend = try SQLiteStoreBackend(url: url, description: description)
        defer { backend.close() }
        let metadata: SQLiteStoreBackend.StoredMetadata
        do {
            metadata = try backend.writer.read { db in
                guard try db.tableExists(SQLiteSchema.metadataTable) else {
                    throw PersistentStoreError(PersistentStoreError.invalidStoreFile, "the database was not made by OpenCoreData (it has no \(SQLiteSchema.metadataTable) table)", url: url)
                }
                return try backend.readMetadata(db)
            }
        } catch let error as PersistentStoreError {
            throw error
        } catch {
            throw SQLiteStoreBackend.storeError(error, url: url, doing: "reading the store's model")
        }
        try self.init(recordedIn: metadata, url: url)
    }

    /// The model `metadata` records, checked against it.
    ///
    /// - Parameters:
    ///   - metadata: A store's metadata.
    ///   - url: The store's URL, for errors (a PostgreSQL store's without its password).
    /// - Throws: ``PersistentStoreError/corruptStore`` when the recorded schema cannot be rebuilt
    ///   into a model, or the model rebuilt differs from it.
    package convenience init(recordedIn metadata: StoreMetadata, url: URL?) throws {
        let entities: [EntityDescription]
        do {
            entities = try metadata.schema.makeEntities()
        } catch {
            throw Self.unbuildable(error.message, url: url)
        }
        self.init(entities: entities)
        name = metadata.version.name
        versionIdentifiers = Set(metadata.version.identifiers)
        do {
            try compile()
        } catch {
            throw Self.unbuildable(error.message, url: url)
        }
        // Checked, so that a schema this library rebuilds wrongly is an error here, not a
        // migration refused later with a confusing list of differences.
        let rebuilt = ModelSchema(model: self)
        guard rebuilt == metadata.schema else {
            throw Self.unbuildable("the rebuilt model's schema differs from the stored one (hash \(rebuilt.versionHash), stored \(metadata.hash))", url: url)
        }
    }

    private static func unbuildable(_ reason: String, url: URL?) -> PersistentStoreError {
        PersistentStoreError(PersistentStoreError.corruptStore, "the model the store records cannot be rebuilt: \(reason)", url: url)
    }
}
