/// Checks a model and lays out its entities: names, inheritance, relationship destinations and
/// inverses, defaults, indexes, and each entity's storage slots.
struct ModelCompiler {
    let model: ManagedObjectModel

    func run() throws(ModelError) {
        let entities = model.entities
        let byName = try checkEntityNames(entities)
        try checkInheritance(entities)
        for entity in orderedSupersFirst(entities) {
            try layOut(entity)
        }
        for entity in entities {
            for case let relationship as RelationshipDescription in entity.properties {
                try resolve(relationship, in: entity, byName: byName)
            }
        }
        for entity in entities {
            for case let relationship as RelationshipDescription in entity.properties {
                try checkInverse(relationship, in: entity)
            }
            for case let attribute as AttributeDescription in entity.properties {
                try compileDefault(attribute, in: entity)
            }
            try checkIndexes(entity)
        }
        for entity in orderedSupersFirst(entities) {
            try compileConstraints(entity)
        }
        try compileDerivations(entities)
    }

    // MARK: Derived attributes

    private func compileDerivations(_ entities: [EntityDescription]) throws(ModelError) {
        for entity in entities {
            for case let attribute as DerivedAttributeDescription in entity.properties {
                let derivation = try Derivation.compile(attribute.derivationExpression, for: attribute, in: entity)
                if let relationship = derivation.relationship {
                    guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity else {
                        throw ModelError(ModelError.invalidDeclaration, "derived attribute \(entity.entityName).\(attribute.name) reads through \(relationship.name), which has no inverse; give it one so that changes at \(relationship.destinationEntity?.entityName ?? "its destination") recompute the value")
                    }
                    for reader in destination.selfAndDescendants where !reader.derivationDependents.contains(where: { $0 === inverse }) {
                        reader.derivationDependents.append(inverse)
                    }
                }
                attribute.derivation = derivation
                attribute.isDerived = true
            }
        }
        for entity in entities {
            entity.derivedAttributes = entity.slots.compactMap { ($0 as? AttributeDescription)?.isDerived == true ? $0 as? AttributeDescription : nil }
            if !entity.derivedAttributes.isEmpty { model.hasDerivedAttributes = true }
        }
    }

    // MARK: Names

    private func checkEntityNames(_ entities: [EntityDescription]) throws(ModelError) -> [String: EntityDescription] {
        var byName: [String: EntityDescription] = [:]
        var lowercased: Set<String> = []
        for entity in entities {
            guard let name = entity.name, !name.isEmpty else {
                throw ModelError(ModelError.invalidName, "an entity has no name; set EntityDescription.name")
            }
            guard isValidIdentifier(name) else {
                throw ModelError(ModelError.invalidName, "entity name '\(name)' must start with a letter and contain only letters, digits and '_'")
            }
            guard lowercased.insert(name.lowercased()).inserted else {
                throw ModelError(ModelError.invalidName, "entity name '\(name)' is used twice (names are compared case-insensitively)")
            }
            byName[name] = entity
        }
        return byName
    }

    private func checkInheritance(_ entities: [EntityDescription]) throws(ModelError) {
        let members = Set(entities.map(ObjectIdentifier.init))
        for entity in entities {
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(entity)]
            var current = entity.superentity
            while let ancestor = current {
                guard members.contains(ObjectIdentifier(ancestor)) else {
                    throw ModelError(ModelError.invalidInheritance, "entity '\(entity.entityName)' inherits from '\(ancestor.entityName)', which is not in the model")
                }
                guard seen.insert(ObjectIdentifier(ancestor)).inserted else {
                    throw ModelError(ModelError.invalidInheritance, "entity '\(entity.entityName)' inherits from itself")
                }
                current = ancestor.superentity
            }
            for subentity in entity.subentities where !members.contains(ObjectIdentifier(subentity)) {
                throw ModelError(ModelError.invalidInheritance, "entity '\(subentity.entityName)', a subentity of '\(entity.entityName)', is not in the model")
            }
        }
    }

    func orderedSupersFirst(_ entities: [EntityDescription]) -> [EntityDescription] {
        func depth(_ entity: EntityDescription) -> Int {
            var depth = 0
            var current = entity.superentity
            while let ancestor = current { depth += 1; current = ancestor.superentity }
            return depth
        }
        return entities.enumerated()
            .sorted { (depth($0.element), $0.offset) < (depth($1.element), $1.offset) }
            .map(\.element)
    }

    // MARK: Layout

    private func layOut(_ entity: EntityDescription) throws(ModelError) {
        var slots = entity.superentity?.slots ?? []
        var slotByName = entity.superentity?.slotByName ?? [:]
        for property in entity.properties {
            let name = property.name
            guard isValidIdentifier(name) else {
                throw ModelError(ModelError.invalidName, "property name '\(name)' of \(entity.entityName) must start with a letter and contain only letters, digits and '_'")
            }
            guard slotByName[name] == nil else {
                throw ModelError(ModelError.invalidName, "\(entity.entityName) declares '\(name)' twice (counting inherited properties)")
            }
            property.entity = entity
            property.slot = slots.count
            slotByName[name] = slots.count
            slots.append(property)
        }
        entity.slots = slots
        entity.slotByName = slotByName
        var root = entity
        while let parent = root.superentity { root = parent }
        entity.rootEntity = root
        entity.selfAndDescendants = [entity] + descendants(of: entity)
    }

    private func descendants(of entity: EntityDescription) -> [EntityDescription] {
        entity.subentities.flatMap { [$0] + descendants(of: $0) }
    }

    // MARK: Relationships

    private func resolve(_ relationship: RelationshipDescription, in entity: EntityDescription,
                         byName: [String: EntityDescription]) throws(ModelError) {
        if relationship.destinationEntity == nil, let destinationName = relationship.destinationEntityName {
            relationship.destinationEntity = byName[destinationName]
        }
        guard let destination = relationship.destinationEntity, byName[destination.entityName] === destination else {
            let named = relationship.destinationEntity?.entityName ?? relationship.destinationEntityName ?? "nothing"
            throw ModelError(ModelError.unknownDestination, "relationship \(entity.entityName).\(relationship.name) points to \(named), which is not an entity of the model")
        }
        if relationship.isToMany, relationship.maxCount > 0, relationship.maxCount < relationship.minCount {
            throw ModelError(ModelError.invalidDeclaration, "relationship \(entity.entityName).\(relationship.name) has maxCount \(relationship.maxCount) below minCount \(relationship.minCount)")
        }
        if relationship.inverseRelationship == nil, let inverseName = relationship.inverseName {
            guard let inverse = destination.slots.first(where: { $0.name == inverseName }) as? RelationshipDescription else {
                throw ModelError(ModelError.inverseMismatch, "relationship \(entity.entityName).\(relationship.name) names inverse '\(inverseName)', which is not a relationship of \(destination.entityName)")
            }
            relationship.inverseRelationship = inverse
        }
    }

    private func checkInverse(_ relationship: RelationshipDescription, in entity: EntityDescription) throws(ModelError) {
        guard let inverse = relationship.inverseRelationship else { return }
        let here = "\(entity.entityName).\(relationship.name)"
        guard let inverseEntity = inverse.entity, relationship.destinationEntity.map({ inverseEntity === $0 || $0.isKindOf(entity: inverseEntity) }) == true else {
            throw ModelError(ModelError.inverseMismatch, "the inverse of \(here) must be a relationship of its destination \(relationship.destinationEntity?.entityName ?? "?")")
        }
        if inverse.inverseRelationship == nil {
            inverse.inverseRelationship = relationship
        }
        guard inverse.inverseRelationship === relationship,
              let inverseDestination = inverse.destinationEntity,
              entity === inverseDestination || entity.isKindOf(entity: inverseDestination) else {
            throw ModelError(ModelError.inverseMismatch, "\(here) and \(inverseEntity.entityName).\(inverse.name) are not each other's inverse; set inverseRelationship on both ends")
        }
    }

    // MARK: Attributes and indexes

    private func compileDefault(_ attribute: AttributeDescription, in entity: EntityDescription) throws(ModelError) {
        switch attribute.storageConversion(of: attribute.defaultValue) {
        case .success(let value):
            attribute.defaultStorage = value
        case .failure(let refusal):
            throw ModelError(ModelError.invalidDefaultValue, "default value of \(entity.entityName).\(attribute.name): \(refusal.reason)")
        }
    }

    private func checkIndexes(_ entity: EntityDescription) throws(ModelError) {
        for index in entity.indexes {
            guard !index.elements.isEmpty else {
                throw ModelError(ModelError.invalidIndex, "index '\(index.name)' of \(entity.entityName) has no elements")
            }
            for element in index.elements {
                let property = entity.property(named: element.propertyName)
                let indexable = property is AttributeDescription
                    || (property as? RelationshipDescription).map { !$0.isToMany } == true
                guard let property, indexable, !property.isTransient else {
                    throw ModelError(ModelError.invalidIndex, "index '\(index.name)' of \(entity.entityName) names '\(element.propertyName)', which is not a stored attribute or to-one relationship of the entity")
                }
            }
        }
    }
}

/// Entity and property names: a letter, then letters, digits or underscores. Names starting with
/// `_` are reserved for the stores' bookkeeping columns.
func isValidIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
}
