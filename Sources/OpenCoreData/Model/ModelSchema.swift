import Foundation

/// The part of a model a store depends on, kept in the store's metadata: entities, their stored
/// attributes and relationships. Comparing the stored schema with the current model tells whether
/// a store can be opened, migrated, or must be refused.
package struct ModelSchema: Codable, Equatable, Sendable {
    package struct Entity: Codable, Equatable, Sendable {
        package var name: String
        package var superentity: String?
        package var attributes: [Attribute]
        package var relationships: [Relationship]
        /// The uniqueness constraints the entity declares (not inherited ones), by property
        /// names; nil when it declares none, so that a model without constraints keeps the hash
        /// it had before stores recorded them.
        package var uniquenessConstraints: [[String]]? = nil
        /// The entity's name in an earlier version (its renaming identifier), when it differs:
        /// read from the opening model to migrate a renamed entity, never stored or hashed.
        package var renamedFrom: String? = nil

        private enum CodingKeys: String, CodingKey {
            case name, superentity, attributes, relationships, uniquenessConstraints
        }

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.superentity == rhs.superentity && lhs.attributes == rhs.attributes
                && lhs.relationships == rhs.relationships && lhs.uniquenessConstraints == rhs.uniquenessConstraints
        }
    }

    package struct Attribute: Codable, Equatable, Sendable {
        package var name: String
        package var type: String
        package var isOptional: Bool
        package var hasDefault: Bool
        /// The attribute's name in an earlier version (its renaming identifier), when it differs:
        /// read from the opening model to migrate a renamed attribute, never stored or hashed
        /// (a rename alone changes no stored value).
        package var renamedFrom: String? = nil

        private enum CodingKeys: String, CodingKey {
            case name, type, isOptional, hasDefault
        }

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.type == rhs.type && lhs.isOptional == rhs.isOptional && lhs.hasDefault == rhs.hasDefault
        }
    }

    package struct Relationship: Codable, Equatable, Sendable {
        package var name: String
        package var destination: String
        package var isToMany: Bool
        package var isOptional: Bool
        /// `column`, `inverse:<name>` or `join:<owner>`: where the store keeps the links.
        package var storage: String
        /// True for an ordered to-many, whose store keeps an order column; nil otherwise, so that
        /// models without ordered relationships keep the hash they had before.
        package var isOrdered: Bool? = nil
        /// The relationship's name in an earlier version (its renaming identifier), when it
        /// differs; like ``Attribute/renamedFrom``, never stored or hashed.
        package var renamedFrom: String? = nil

        private enum CodingKeys: String, CodingKey {
            case name, destination, isToMany, isOptional, storage, isOrdered
        }

        package static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.isToMany == rhs.isToMany
                && lhs.isOptional == rhs.isOptional && lhs.storage == rhs.storage && lhs.isOrdered == rhs.isOrdered
        }
    }

    package var entities: [Entity]

    /// The schema of a compiled model.
    package init(model: ManagedObjectModel) {
        entities = model.entities.map { entity in
            Entity(
                name: entity.entityName,
                superentity: entity.superentity?.entityName,
                attributes: entity.properties.compactMap { property in
                    guard let attribute = property as? AttributeDescription, attribute.isPersistent else { return nil }
                    return Attribute(name: attribute.name, type: attribute.attributeType.description,
                                     isOptional: attribute.isOptional, hasDefault: !attribute.defaultStorage.isNull,
                                     renamedFrom: attribute.renamingIdentifier.flatMap { $0 == attribute.name ? nil : $0 })
                },
                relationships: entity.properties.compactMap { property in
                    guard let relationship = property as? RelationshipDescription else { return nil }
                    return Relationship(name: relationship.name, destination: relationship.destinationEntity?.entityName ?? "",
                                        isToMany: relationship.isToMany, isOptional: relationship.isOptional,
                                        storage: Self.storageName(relationship.storage),
                                        isOrdered: relationship.isToMany && relationship.isOrdered ? true : nil,
                                        renamedFrom: relationship.renamingIdentifier.flatMap { $0 == relationship.name ? nil : $0 })
                },
                uniquenessConstraints: Self.declaredConstraints(of: entity),
                renamedFrom: entity.renamingIdentifier.flatMap { $0 == entity.entityName ? nil : $0 })
        }
    }

    private static func declaredConstraints(of entity: EntityDescription) -> [[String]]? {
        let declared = entity.constraints.filter { $0.entity === entity }.map(\.names)
        return declared.isEmpty ? nil : declared
    }

    private static func storageName(_ storage: RelationshipStorage) -> String {
        switch storage {
        case .foreignKey: "column"
        case .inverseForeignKey(let inverse): "inverse:\(inverse.name)"
        case .joinTable(let owner): "join:\(owner.qualifiedName)"
        }
    }

    /// A hash of the schema: equal hashes mean a store can be opened without looking further.
    package var versionHash: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    package func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}

/// What opening a store made by `stored` with the current model requires.
package struct SchemaMigration: Sendable {
    /// Changes a store can make in place without losing data.
    package enum Step: Sendable, Equatable {
        case addEntity(String)
        case addAttribute(entity: String, attribute: String)
        case addRelationship(entity: String, relationship: String)
        /// An optional attribute became required with a default: stored nils take the default.
        case fillDefault(entity: String, attribute: String)
        /// A uniqueness constraint was added: the store makes its unique index, and refuses to
        /// open if stored rows already break it.
        case addUniquenessConstraint(entity: String, properties: [String])
        /// A uniqueness constraint was removed: the store drops its unique index.
        case removeUniquenessConstraint(entity: String, properties: [String])
        /// An attribute was renamed (the new one's renaming identifier names the old one): the
        /// store renames its column, keeping the values.
        case renameAttribute(entity: String, from: String, to: String)
        /// A relationship was renamed: the store renames the columns it keeps for it (a to-one's
        /// key and entity columns, an ordered to-many's order column), keeping the links.
        case renameRelationship(entity: String, from: String, to: String)
        /// An entity was renamed (the new one's renaming identifier names the old one): the store
        /// renames what it keeps under the entity's name (its table for a root entity, its
        /// columns in its hierarchy's table for a subentity, its join tables) and its entity
        /// code, keeping the rows. Every other step names entities by their new names, after it.
        case renameEntity(from: String, to: String)
    }

    package var steps: [Step] = []
    /// Differences that cannot be migrated automatically, in words.
    package var incompatibilities: [String] = []

    package var isEmpty: Bool { steps.isEmpty && incompatibilities.isEmpty }

    /// Renamed relationships, by entity (its new name) and old name: the new name.
    private var relationshipRenames: [String: [String: String]] = [:]
    /// Renamed entities, by old name: the new name.
    private var entityRenames: [String: String] = [:]

    /// An entity's name in the current schema.
    private func currentName(of storedName: String) -> String {
        entityRenames[storedName] ?? storedName
    }

    /// Compares the schema a store was made with to the current one.
    package init(from stored: ModelSchema, to current: ModelSchema) {
        for new in current.entities {
            guard let previous = new.renamedFrom, stored.entity(named: new.name) == nil, stored.entity(named: previous) != nil,
                  current.entity(named: previous) == nil, entityRenames[previous] == nil else { continue }
            entityRenames[previous] = new.name
        }
        // First: every later step names entities by their new names.
        steps += entityRenames.sorted { $0.key < $1.key }.map { Step.renameEntity(from: $0.key, to: $0.value) }
        let storedNames = Dictionary(uniqueKeysWithValues: entityRenames.map { ($0.value, $0.key) })
        for new in current.entities {
            guard let old = stored.entity(named: storedNames[new.name] ?? new.name) else { continue }
            for relationship in new.relationships {
                guard let previous = relationship.renamedFrom, !old.relationships.contains(where: { $0.name == relationship.name }),
                      old.relationships.contains(where: { $0.name == previous }),
                      !new.relationships.contains(where: { $0.name == previous }),
                      relationshipRenames[new.name]?[previous] == nil else { continue }
                relationshipRenames[new.name, default: [:]][previous] = relationship.name
            }
        }
        for old in stored.entities {
            guard let new = current.entity(named: currentName(of: old.name)) else {
                incompatibilities.append("entity \(old.name) was removed")
                continue
            }
            if old.superentity.map(currentName(of:)) != new.superentity {
                incompatibilities.append("entity \(old.name) now inherits from \(new.superentity ?? "nothing") instead of \(old.superentity ?? "nothing")")
            }
            compareAttributes(of: old, new)
            compareRelationships(of: old, new)
            compareConstraints(of: old, new)
        }
        let renamedTo = Set(entityRenames.values)
        for new in current.entities where stored.entity(named: new.name) == nil && !renamedTo.contains(new.name) {
            steps.append(.addEntity(new.name))
            for properties in new.uniquenessConstraints ?? [] {
                steps.append(.addUniquenessConstraint(entity: new.name, properties: properties))
            }
        }
    }

    /// Constraints are compared as sets of property names: reordering a constraint's names
    /// changes nothing the store enforces.
    private mutating func compareConstraints(of old: ModelSchema.Entity, _ new: ModelSchema.Entity) {
        let before = (old.uniquenessConstraints ?? []).map(Set.init)
        let after = (new.uniquenessConstraints ?? []).map(Set.init)
        for properties in new.uniquenessConstraints ?? [] where !before.contains(Set(properties)) {
            steps.append(.addUniquenessConstraint(entity: new.name, properties: properties))
        }
        for properties in old.uniquenessConstraints ?? [] where !after.contains(Set(properties)) {
            steps.append(.removeUniquenessConstraint(entity: new.name, properties: properties))
        }
    }

    private mutating func compareAttributes(of old: ModelSchema.Entity, _ new: ModelSchema.Entity) {
        // New attributes that take over an old one's column, by the old one's name.
        var renames: [String: ModelSchema.Attribute] = [:]
        for attribute in new.attributes {
            guard let previous = attribute.renamedFrom, !old.attributes.contains(where: { $0.name == attribute.name }),
                  old.attributes.contains(where: { $0.name == previous }) else { continue }
            if !new.attributes.contains(where: { $0.name == previous }), renames[previous] == nil {
                renames[previous] = attribute
            }
        }
        for attribute in old.attributes {
            let renamed = renames[attribute.name]
            guard let now = renamed ?? new.attributes.first(where: { $0.name == attribute.name }) else {
                incompatibilities.append("attribute \(old.name).\(attribute.name) was removed")
                continue
            }
            if let renamed {
                steps.append(.renameAttribute(entity: new.name, from: attribute.name, to: renamed.name))
            }
            if now.type != attribute.type {
                incompatibilities.append("attribute \(old.name).\(attribute.name) changed type from \(attribute.type) to \(now.type)")
            }
            if attribute.isOptional, !now.isOptional {
                if now.hasDefault, now.type == attribute.type {
                    steps.append(.fillDefault(entity: new.name, attribute: now.name))
                } else if !now.hasDefault {
                    incompatibilities.append("attribute \(old.name).\(attribute.name) became required; stored objects may have no value")
                }
            }
        }
        let renamedTo = Set(renames.values.map(\.name))
        for attribute in new.attributes where !old.attributes.contains(where: { $0.name == attribute.name }) && !renamedTo.contains(attribute.name) {
            if attribute.isOptional || attribute.hasDefault {
                steps.append(.addAttribute(entity: new.name, attribute: attribute.name))
            } else {
                incompatibilities.append("attribute \(new.name).\(attribute.name) was added as required without a default value")
            }
        }
    }

    /// Where a stored relationship keeps its links, as the current schema would say it after
    /// the renames: an inverse's name follows its rename.
    private func renamedStorage(of relationship: ModelSchema.Relationship) -> String {
        let inversePrefix = "inverse:", joinPrefix = "join:"
        if relationship.storage.hasPrefix(joinPrefix) {
            // The owner's qualified name, Entity.relationship: the entity may have been renamed.
            let owner = relationship.storage.dropFirst(joinPrefix.count)
            guard let dot = owner.firstIndex(of: ".") else { return relationship.storage }
            return joinPrefix + currentName(of: String(owner[..<dot])) + owner[dot...]
        }
        guard relationship.storage.hasPrefix(inversePrefix) else { return relationship.storage }
        let inverse = String(relationship.storage.dropFirst(inversePrefix.count))
        return inversePrefix + (relationshipRenames[currentName(of: relationship.destination)]?[inverse] ?? inverse)
    }

    private mutating func compareRelationships(of old: ModelSchema.Entity, _ new: ModelSchema.Entity) {
        let renames = relationshipRenames[new.name] ?? [:]
        for relationship in old.relationships {
            let renamed = renames[relationship.name]
            guard let now = new.relationships.first(where: { $0.name == (renamed ?? relationship.name) }) else {
                incompatibilities.append("relationship \(old.name).\(relationship.name) was removed")
                continue
            }
            if let renamed {
                if relationship.storage.hasPrefix("join:") {
                    incompatibilities.append("relationship \(old.name).\(relationship.name) was renamed \(renamed), and its links are kept in a join table (a many-to-many relationship), which a lightweight migration does not rename")
                    continue
                }
                steps.append(.renameRelationship(entity: new.name, from: relationship.name, to: renamed))
            }
            if now.destination != currentName(of: relationship.destination) || now.isToMany != relationship.isToMany
                || now.storage != renamedStorage(of: relationship) {
                incompatibilities.append("relationship \(old.name).\(relationship.name) changed (destination, cardinality or inverse)")
            } else if now.isOrdered == true, relationship.isOrdered != true {
                // The store adds the order column; the links stay, arranged by key until reordered.
                steps.append(.addRelationship(entity: new.name, relationship: now.name))
            }
        }
        let renamedTo = Set(renames.values)
        for relationship in new.relationships where !old.relationships.contains(where: { $0.name == relationship.name }) && !renamedTo.contains(relationship.name) {
            if relationship.isToMany || relationship.isOptional {
                steps.append(.addRelationship(entity: new.name, relationship: relationship.name))
            } else {
                incompatibilities.append("relationship \(new.name).\(relationship.name) was added as required")
            }
        }
    }
}
