/// One of an entity's uniqueness constraints, compiled: the properties whose values, taken
/// together, no two objects of the declaring entity (or of the entities below it) may share.
///
/// Built by the model compiler from ``EntityDescription/uniquenessConstraints``; stores enforce
/// it (the SQLite store with a unique index) and a save resolves objects that break it with the
/// context's merge policy. A value that is nil never conflicts, as in SQL: an object whose
/// constraint holds a nil is not constrained by it.
package struct UniquenessConstraint: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The entity that declares the constraint; it covers this entity and its subentities.
    package let entity: EntityDescription
    /// The constrained attributes and to-one relationships, in declaration order.
    package let properties: [PropertyDescription]

    package var names: [String] { properties.map(\.name) }
    package var slots: [Int] { properties.map(\.slot) }

    /// Whether objects of `entity` are covered.
    package func covers(_ entity: EntityDescription) -> Bool {
        entity.isKindOf(entity: self.entity)
    }

    /// `Team(teamName, qualifyingZone)`.
    package var description: String { "\(entity.entityName)(\(names.joined(separator: ", ")))" }

    /// `teamName = "Brazil", qualifyingZone = "CONMEBOL"`, for messages.
    package func describe(_ values: [PropertyValue]) -> String {
        zip(names, values).map { "\($0) = \(Self.describe($1))" }.joined(separator: ", ")
    }

    package static func describe(_ value: PropertyValue) -> String {
        switch value {
        case .null: "nil"
        case .string(let text): "\"\(text)\""
        case .integer(let integer): "\(integer)"
        case .double(let double): "\(double)"
        case .decimal(let decimal): "\(decimal)"
        case .boolean(let bool): "\(bool)"
        case .date(let date): "\(date)"
        case .data(let data): "\(data.count) bytes"
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .object(let id): "\(id)"
        }
    }

    package static func == (lhs: UniquenessConstraint, rhs: UniquenessConstraint) -> Bool {
        lhs.entity === rhs.entity && lhs.properties.map(ObjectIdentifier.init) == rhs.properties.map(ObjectIdentifier.init)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entity))
        for property in properties { hasher.combine(ObjectIdentifier(property)) }
    }
}

extension EntityDescription {
    /// The constraints covering this entity's objects: those its superentities declare, then its
    /// own. Set when the model is compiled.
    package var constraints: [UniquenessConstraint] { compiledConstraints }
}

// MARK: - Compilation

extension ModelCompiler {
    /// Checks an entity's declared constraints and records the ones covering it (its
    /// superentity's first). Runs supers first, after the layout and relationship resolution.
    func compileConstraints(_ entity: EntityDescription) throws(ModelError) {
        var compiled = entity.superentity?.compiledConstraints ?? []
        for names in entity.uniquenessConstraints {
            let constraint = try compileConstraint(names, in: entity)
            // A subentity repeating a constraint it inherits (a class-level declaration is
            // inherited by subclasses) adds nothing: the inherited one already covers it.
            let known = compiled.contains { Set($0.names) == Set(constraint.names) }
            if !known { compiled.append(constraint) }
        }
        entity.compiledConstraints = compiled
    }

    private func compileConstraint(_ names: [String], in entity: EntityDescription) throws(ModelError) -> UniquenessConstraint {
        let listed = "[\(names.joined(separator: ", "))]"
        guard !names.isEmpty else {
            throw ModelError(ModelError.invalidConstraint, "a uniqueness constraint of \(entity.entityName) is empty; list at least one attribute")
        }
        var properties: [PropertyDescription] = []
        for name in names {
            guard let property = entity.property(named: name) else {
                throw ModelError(ModelError.invalidConstraint, "uniqueness constraint \(listed) of \(entity.entityName) names '\(name)', which is not a property of \(entity.entityName) or its superentities")
            }
            if let relationship = property as? RelationshipDescription, relationship.isToMany {
                throw ModelError(ModelError.invalidConstraint, "uniqueness constraint \(listed) of \(entity.entityName) names '\(name)', a to-many relationship; a constraint holds attributes and to-one relationships only")
            }
            guard property.isPersistent else {
                throw ModelError(ModelError.invalidConstraint, "uniqueness constraint \(listed) of \(entity.entityName) names '\(name)', a transient property the store does not keep; remove it from the constraint or make it persistent")
            }
            guard !properties.contains(where: { $0 === property }) else {
                throw ModelError(ModelError.invalidConstraint, "uniqueness constraint \(listed) of \(entity.entityName) names '\(name)' twice")
            }
            properties.append(property)
        }
        return UniquenessConstraint(entity: entity, properties: properties)
    }
}
