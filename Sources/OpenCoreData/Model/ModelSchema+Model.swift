import Foundation

/// A model rebuilt from the schema a store records, for programs that open a store without the
/// classes of the app that made it (`ocd`).
///
/// The schema holds what the store's tables depend on: entities and their inheritance, each
/// stored attribute's type, optionality and whether it has a default, each relationship's
/// destination, cardinality, storage and whether it is ordered, and uniqueness constraints. That is enough to read every
/// row and follow every relationship. It does not hold delete rules, default values (only that
/// one exists), validation rules, indexes, transient properties or the app's classes: the rebuilt
/// model's entities use ``ManagedObject``, and it is meant for opening the store read-only.
extension ModelSchema {
    /// Entities whose schema, once a model of them is compiled, is this one: `ModelSchema(model:)`
    /// of that model equals `self`, so it opens the store that recorded it without migration.
    ///
    /// Inverses are paired from the storage the schema records: a to-many read through a to-one
    /// column (`inverse:<name>`) is that to-one's inverse, and the two ends of a many-to-many share
    /// a join table (`join:<owner>`). Two to-ones that are each other's inverse each have a column
    /// and are left unpaired; reads do not need the pairing.
    ///
    /// - Throws: ``ModelError`` when the schema names an attribute type, a superentity or a
    ///   destination that does not exist.
    package func makeEntities() throws(ModelError) -> [EntityDescription] {
        var entitiesByName: [String: EntityDescription] = [:]
        for stored in entities {
            let entity = EntityDescription(name: stored.name)
            entity.properties = try stored.attributes.map { attribute throws(ModelError) in try Self.makeAttribute(attribute, of: stored) }
            entity.uniquenessConstraints = stored.uniquenessConstraints ?? []
            entitiesByName[stored.name] = entity
        }
        for stored in entities {
            guard let entity = entitiesByName[stored.name] else { continue }
            if let superName = stored.superentity {
                guard let superentity = entitiesByName[superName] else {
                    throw ModelError(ModelError.invalidInheritance, "entity \(stored.name) inherits from \(superName), which the schema does not have")
                }
                superentity.subentities.append(entity)
            }
            entity.properties += try stored.relationships.map { relationship throws(ModelError) in
                guard let destination = entitiesByName[relationship.destination] else {
                    throw ModelError(ModelError.unknownDestination, "relationship \(stored.name).\(relationship.name) points to \(relationship.destination), which the schema does not have")
                }
                let description = RelationshipDescription(name: relationship.name, destination: destination,
                                                          toMany: relationship.isToMany, isOptional: relationship.isOptional)
                description.isOrdered = relationship.isOrdered ?? false
                return description
            }
        }
        pairInverses(entitiesByName)
        return entities.compactMap { entitiesByName[$0.name] }
    }

    private static func makeAttribute(_ stored: Attribute, of entity: Entity) throws(ModelError) -> AttributeDescription {
        guard let type = AttributeType.allCases.first(where: { $0.description == stored.type }) else {
            throw ModelError(ModelError.invalidDeclaration, "attribute \(entity.name).\(stored.name) has the unknown type '\(stored.type)'")
        }
        return AttributeDescription(name: stored.name, type: type, isOptional: stored.isOptional,
                                    defaultValue: stored.hasDefault ? placeholderDefault(of: type) : nil)
    }

    /// A value of the type, standing for a default the schema does not record: the store's
    /// schema, and so its hash, says only that there is one.
    private static func placeholderDefault(of type: AttributeType) -> Any {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: 0
        case .decimalAttributeType: Decimal(0)
        case .doubleAttributeType: 0.0
        case .floatAttributeType: Float(0)
        case .stringAttributeType: ""
        case .booleanAttributeType: false
        case .dateAttributeType: Date(timeIntervalSinceReferenceDate: 0)
        case .binaryDataAttributeType, .transformableAttributeType: Data()
        case .UUIDAttributeType: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .URIAttributeType: URL(fileURLWithPath: "/")
        }
    }

    /// Sets the inverses the recorded storage implies (see ``makeEntities()``).
    private func pairInverses(_ entitiesByName: [String: EntityDescription]) {
        var joinEnds: [String: [RelationshipDescription]] = [:]
        for stored in entities {
            guard let entity = entitiesByName[stored.name] else { continue }
            for relationship in stored.relationships {
                guard let description = entity.properties.first(where: { $0.name == relationship.name }) as? RelationshipDescription else { continue }
                if relationship.storage.hasPrefix("inverse:") {
                    let inverseName = String(relationship.storage.dropFirst("inverse:".count))
                    guard let inverse = description.destinationEntity?.allProperties
                        .first(where: { $0.name == inverseName }) as? RelationshipDescription else { continue }
                    description.inverseRelationship = inverse
                    inverse.inverseRelationship = description
                } else if relationship.storage.hasPrefix("join:") {
                    joinEnds[relationship.storage, default: []].append(description)
                }
            }
        }
        for ends in joinEnds.values where ends.count == 2 {
            ends[0].inverseRelationship = ends[1]
            ends[1].inverseRelationship = ends[0]
        }
    }
}
