import Foundation
import GRDB

/// The store's metadata table (`_ocd_metadata`): the store's identifier, and what it records of
/// the model that made it (schema, hash, name, version identifiers, entity codes). Loading
/// compares it with the opening model; ``ManagedObjectModel/init(storedIn:)`` rebuilds a model
/// from it.
extension SQLiteStoreBackend {
    enum MetadataKey {
        static let identifier = "storeUUID"
        static let modelHash = "modelHash"
        static let schema = "modelSchema"
        static let entityCodes = "entityCodes"
        static let format = "format"
        static let modelName = "modelName"
        static let modelVersionIdentifiers = "modelVersionIdentifiers"
    }

    struct StoredMetadata {
        var identifier: String
        var hash: String
        var schema: ModelSchema
        var codes: [String: Int64]
        /// The model that made the store, or last migrated it.
        var version: ModelVersion
    }

    func readMetadata(_ db: Database) throws -> StoredMetadata {
        let rows = try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(quoted(SQLiteSchema.metadataTable))")
        var values: [String: String] = [:]
        for row in rows { values[row[0]] = row[1] }
        let decoder = JSONDecoder()
        guard let identifier = values[MetadataKey.identifier], let hash = values[MetadataKey.modelHash],
              let schemaText = values[MetadataKey.schema], let codesText = values[MetadataKey.entityCodes],
              let schema = try? decoder.decode(ModelSchema.self, from: Data(schemaText.utf8)),
              let codes = try? decoder.decode([String: Int64].self, from: Data(codesText.utf8)) else {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the store's metadata is missing or unreadable", url: url)
        }
        // Stores made before models had names have neither key.
        let identifiers = values[MetadataKey.modelVersionIdentifiers].flatMap { try? decoder.decode([String].self, from: Data($0.utf8)) } ?? []
        let version = ModelVersion(name: values[MetadataKey.modelName], identifiers: identifiers, hash: hash,
                                   entityNames: schema.entities.map(\.name))
        return StoredMetadata(identifier: identifier, hash: hash, schema: schema, codes: codes, version: version)
    }

    /// Records which model made (or migrated) the store.
    func writeModelVersion(_ db: Database, _ version: ModelVersion) throws {
        let table = quoted(SQLiteSchema.metadataTable)
        if let name = version.name {
            try db.execute(sql: "INSERT OR REPLACE INTO \(table) VALUES (?, ?)", arguments: [MetadataKey.modelName, name])
        } else {
            try db.execute(sql: "DELETE FROM \(table) WHERE \"key\" = ?", arguments: [MetadataKey.modelName])
        }
        let identifiers = String(decoding: try JSONEncoder().encode(version.identifiers), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO \(table) VALUES (?, ?)", arguments: [MetadataKey.modelVersionIdentifiers, identifiers])
    }

    func writeMetadata(_ db: Database, identifier: String, current: ModelSchema, version: ModelVersion, codes: [String: Int64]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let values = [
            MetadataKey.identifier: identifier,
            MetadataKey.modelHash: current.versionHash,
            MetadataKey.schema: String(decoding: try encoder.encode(current), as: UTF8.self),
            MetadataKey.entityCodes: String(decoding: try encoder.encode(codes), as: UTF8.self),
        ]
        for (key, value) in values {
            try db.execute(sql: "INSERT OR REPLACE INTO \(quoted(SQLiteSchema.metadataTable)) VALUES (?, ?)", arguments: [key, value])
        }
        for entity in current.entities where entity.superentity == nil {
            try db.execute(sql: "INSERT OR IGNORE INTO \(quoted(SQLiteSchema.primaryKeysTable)) VALUES (?, 0)", arguments: [entity.name])
        }
        try writeModelVersion(db, version)
    }
}
