import Foundation

/// What a store records of itself and of the model that made it, as key and text value pairs:
/// the store's identifier, the model's schema, hash, name and version identifiers, and the
/// store's code for each entity. Every store kind that keeps a metadata table (SQLite's and
/// PostgreSQL's `_ocd_metadata`) writes and reads the same keys and encodings, so that the rules
/// comparing a store with the opening model (``SchemaMigration``, ``ModelVersionChecking``) are
/// the same everywhere.
package struct StoreMetadata: Sendable {
    /// The keys of the metadata table.
    package enum Key {
        package static let identifier = "storeUUID"
        package static let modelHash = "modelHash"
        package static let schema = "modelSchema"
        package static let entityCodes = "entityCodes"
        package static let format = "format"
        package static let modelName = "modelName"
        package static let modelVersionIdentifiers = "modelVersionIdentifiers"
    }

    package var identifier: String
    package var hash: String
    package var schema: ModelSchema
    package var codes: [String: Int64]
    /// The model that made the store, or last migrated it.
    package var version: ModelVersion

    /// Reads the metadata from the table's pairs; nil when a required key is missing or its
    /// value cannot be decoded.
    package init?(values: [String: String]) {
        let decoder = JSONDecoder()
        guard let identifier = values[Key.identifier], let hash = values[Key.modelHash],
              let schemaText = values[Key.schema], let codesText = values[Key.entityCodes],
              let schema = try? decoder.decode(ModelSchema.self, from: Data(schemaText.utf8)),
              let codes = try? decoder.decode([String: Int64].self, from: Data(codesText.utf8)) else {
            return nil
        }
        // Stores made before models had names have neither key.
        let identifiers = values[Key.modelVersionIdentifiers].flatMap { try? decoder.decode([String].self, from: Data($0.utf8)) } ?? []
        self.identifier = identifier
        self.hash = hash
        self.schema = schema
        self.codes = codes
        version = ModelVersion(name: values[Key.modelName], identifiers: identifiers, hash: hash,
                               entityNames: schema.entities.map(\.name))
    }

    /// The pairs recording the store's identifier, the current model's schema and hash, and the
    /// entity codes (the model's name and version identifiers are ``versionValues(_:)``).
    package static func values(identifier: String, current: ModelSchema, codes: [String: Int64]) throws -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return [
            Key.identifier: identifier,
            Key.modelHash: current.versionHash,
            Key.schema: String(decoding: try encoder.encode(current), as: UTF8.self),
            Key.entityCodes: String(decoding: try encoder.encode(codes), as: UTF8.self),
        ]
    }

    /// The name (nil: the key is removed) and version identifiers of the model that made or
    /// migrated the store.
    package static func versionValues(_ version: ModelVersion) throws -> (name: String?, identifiers: String) {
        (version.name, String(decoding: try JSONEncoder().encode(version.identifiers), as: UTF8.self))
    }

    /// The entity codes of a new store: 1, 2, … in the schema's order.
    package static func newCodes(for schema: ModelSchema) -> [String: Int64] {
        var codes: [String: Int64] = [:]
        for entity in schema.entities {
            codes[entity.name] = Int64(codes.count + 1)
        }
        return codes
    }

    /// The code of an entity added by a migration: one more than the largest.
    package static func nextCode(after codes: [String: Int64]) -> Int64 {
        (codes.values.max() ?? 0) + 1
    }
}
