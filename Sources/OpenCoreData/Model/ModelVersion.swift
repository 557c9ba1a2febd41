/// Which model made a store, as the store records it, or which model opens it: the model's name
/// (which versions share), its version identifiers, the hash of its schema and its entities.
package struct ModelVersion: Equatable, Sendable, CustomStringConvertible {
    package var name: String?
    /// Sorted.
    package var identifiers: [String]
    package var hash: String
    package var entityNames: [String]

    package init(name: String?, identifiers: [String], hash: String, entityNames: [String]) {
        self.name = name
        self.identifiers = identifiers.sorted()
        self.hash = hash
        self.entityNames = entityNames
    }

    /// The version of a compiled model.
    package init(model: ManagedObjectModel, schema: ModelSchema) {
        self.init(name: model.name, identifiers: Array(model.versionIdentifiers), hash: schema.versionHash,
                  entityNames: schema.entities.map(\.name))
    }

    /// "model 'Library' version 2 (entities Author, Book; hash 5c1f…)", for errors.
    package var description: String {
        var text = name.map { "model '\($0)'" } ?? "an unnamed model"
        if !identifiers.isEmpty { text += " version \(identifiers.joined(separator: ", "))" }
        return text + " (entities \(entityNames.sorted().joined(separator: ", ")); hash \(hash))"
    }
}
