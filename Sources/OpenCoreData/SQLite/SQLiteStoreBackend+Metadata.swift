import Foundation
import GRDB

/// The store's metadata table (`_ocd_metadata`): the store's identifier, and what it records of
/// the model that made it (schema, hash, name, version identifiers, entity codes). Loading
/// compares it with the opening model; ``ManagedObjectModel/init(storedIn:)`` rebuilds a model
/// from it.
extension SQLiteStoreBackend {
    typealias MetadataKey = StoreMetadata.Key
    typealias StoredMetadata = StoreMetadata

    func readMetadata(_ db: Database) throws -> StoredMetadata {
        let rows = try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(quoted(SQLiteSchema.metadataTable))")
        var values: [String: String] = [:]
        for row in rows { values[row[0]] = row[1] }
        guard let metadata = StoreMetadata(values: values) else {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the store's metadata is missing or unreadable", url: url)
        }
        return metadata
    }

    func recordedModelChecksum() throws -> String? {
        do {
            return try writer.read { db in
                guard try db.tableExists(SQLiteSchema.metadataTable) else { return nil }
                return try String.fetchOne(db, sql: "SELECT \"value\" FROM \(quoted(SQLiteSchema.metadataTable)) WHERE \"key\" = ?",
                                           arguments: [MetadataKey.modelHash])
            }
        } catch {
            throw Self.storeError(error, url: url, doing: "reading which model made the store")
        }
    }

    /// Records which model made (or migrated) the store.
    func writeModelVersion(_ db: Database, _ version: ModelVersion) throws {
        let table = quoted(SQLiteSchema.metadataTable)
        let (name, identifiers) = try StoreMetadata.versionValues(version)
        if let name {
            try db.execute(sql: "INSERT OR REPLACE INTO \(table) VALUES (?, ?)", arguments: [MetadataKey.modelName, name])
        } else {
            try db.execute(sql: "DELETE FROM \(table) WHERE \"key\" = ?", arguments: [MetadataKey.modelName])
        }
        try db.execute(sql: "INSERT OR REPLACE INTO \(table) VALUES (?, ?)", arguments: [MetadataKey.modelVersionIdentifiers, identifiers])
    }

    func writeMetadata(_ db: Database, identifier: String, current: ModelSchema, version: ModelVersion, codes: [String: Int64]) throws {
        let values = try StoreMetadata.values(identifier: identifier, current: current, codes: codes)
        for (key, value) in values {
            try db.execute(sql: "INSERT OR REPLACE INTO \(quoted(SQLiteSchema.metadataTable)) VALUES (?, ?)", arguments: [key, value])
        }
        for entity in current.entities where entity.superentity == nil {
            try db.execute(sql: "INSERT OR IGNORE INTO \(quoted(SQLiteSchema.primaryKeysTable)) VALUES (?, 0)", arguments: [entity.name])
        }
        try writeModelVersion(db, version)
    }
}
