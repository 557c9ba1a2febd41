/// Builds entity descriptions from `@Managed` declarations, by reflecting on a prototype instance
/// of each class: its wrappers give the property names, types, defaults and relationship
/// options; its superclass gives the superentity. Destination classes of relationships are
/// included automatically.
struct EntityReflector {
    private var entitiesByClass: [ObjectIdentifier: EntityDescription] = [:]
    private(set) var entities: [EntityDescription] = []

    /// A stand-in entity that prototype objects are created with.
    static let placeholder: EntityDescription = {
        let entity = EntityDescription(name: "_Placeholder")
        entity.isPlaceholder = true
        return entity
    }()

    mutating func entity(for objectClass: ManagedObject.Type) throws(ModelError) -> EntityDescription {
        if let known = entitiesByClass[ObjectIdentifier(objectClass)] { return known }
        // The prototypes' wrappers record their declarations only inside this (see
        // ManagedDeclarationRecorder); relationships reflect their destinations within it.
        return try ManagedDeclarationRecorder.reflecting { () throws(ModelError) -> EntityDescription in
            try reflect(objectClass)
        }
    }

    private mutating func reflect(_ objectClass: ManagedObject.Type) throws(ModelError) -> EntityDescription {
        let entity = EntityDescription(name: objectClass.entityName)
        entity.managedObjectClass = objectClass
        entity.indexes = objectClass.fetchIndexes
        entitiesByClass[ObjectIdentifier(objectClass)] = entity
        entities.append(entity)

        let prototype = Mirror(reflecting: objectClass.init(entity: Self.placeholder, insertInto: nil))
        // A second prototype exposes defaults that change between instances, such as `Date()`.
        let secondPrototype = Mirror(reflecting: objectClass.init(entity: Self.placeholder, insertInto: nil))

        if let parentClass = prototype.superclassMirror?.subjectType as? ManagedObject.Type,
           parentClass != ManagedObject.self {
            let parent = try self.entity(for: parentClass)
            parent.subentities.append(entity)
        }

        var properties: [PropertyDescription] = []
        var uniqueDeclarations: [String] = []
        for (child, secondChild) in zip(prototype.children, secondPrototype.children) {
            guard let label = child.label, label.hasPrefix("_"),
                  let declaration = child.value as? any AnyManagedDeclaration else { continue }
            let name = String(label.dropFirst())
            let secondDefault = (secondChild.value as? any AnyManagedDeclaration)?.defaultStoredValue
            properties.append(try property(named: name, declaration, secondDefault: secondDefault, in: entity))
            if declaration.declaration.isUnique { uniqueDeclarations.append(name) }
        }
        entity.properties = properties
        entity.uniquenessConstraints = objectClass.uniquenessConstraints
            + uniqueDeclarations.map { [$0] }
        return entity
    }

    private mutating func property(
        named name: String, _ wrapper: any AnyManagedDeclaration, secondDefault: Any?, in entity: EntityDescription
    ) throws(ModelError) -> PropertyDescription {
        let declaration = wrapper.declaration
        switch wrapper.kind {
        case .attribute(let type, let isOptional):
            let defaultValue = wrapper.defaultStoredValue
            if PropertyValue.coerce(defaultValue, to: type) != PropertyValue.coerce(secondDefault, to: type) {
                throw ModelError(ModelError.invalidDefaultValue, "the default value of \(entity.entityName).\(name) changes between instances (like Date() or UUID()); defaults must be constants, so set it in awakeFromInsert() instead")
            }
            let attribute = AttributeDescription(name: name, type: type, isOptional: isOptional,
                                                 defaultValue: defaultValue, isIndexed: declaration.isIndexed)
            attribute.isTransient = declaration.isTransient
            return attribute
        case .codable(let type):
            let attribute = AttributeDescription(name: name, type: .transformableAttributeType, isOptional: true,
                                                 defaultValue: wrapper.defaultStoredValue, isIndexed: declaration.isIndexed)
            attribute.codableValueType = type
            attribute.attributeValueClassName = String(describing: type)
            attribute.isTransient = declaration.isTransient
            return attribute
        case .number:
            throw ModelError(ModelError.invalidDeclaration, "\(entity.entityName).\(name) is an NSNumber, whose attribute type only a model file gives; declare it Int16, Int32, Int64, Double, Float, Decimal or Bool, or load the model from its file with ManagedObjectModel(contentsOf:managedObjectClasses:)")
        case .toOne(let destinationClass):
            let relationship = RelationshipDescription(name: name, toMany: false, deleteRule: declaration.deleteRule,
                                                       isOptional: declaration.isOptional)
            relationship.destinationEntityName = try self.entity(for: destinationClass).entityName
            relationship.inverseName = declaration.inverse.map { String(describing: $0) }
            return relationship
        case .toMany(let destinationClass), .orderedToMany(let destinationClass):
            guard declaration.maxCount != 1 else {
                throw ModelError(ModelError.invalidDeclaration, "\(entity.entityName).\(name) is a to-many with maxCount 1; declare a to-one relationship (an optional object) instead")
            }
            let relationship = RelationshipDescription(name: name, toMany: true, deleteRule: declaration.deleteRule)
            if case .orderedToMany = wrapper.kind { relationship.isOrdered = true }
            relationship.minCount = Int(declaration.minCount)
            relationship.maxCount = Int(declaration.maxCount)
            relationship.destinationEntityName = try self.entity(for: destinationClass).entityName
            relationship.inverseName = declaration.inverse.map { String(describing: $0) }
            return relationship
        }
    }
}

extension ManagedObjectModel {
    /// Creates a model from `ManagedObject` subclasses that declare their properties with
    /// ``Managed``: one entity per class, named after it (or its ``ManagedObject/entityName``),
    /// a superentity for each superclass, and the classes at the other end of relationships
    /// included automatically.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(managedObjectClasses: [Team.self, Player.self])
    /// ```
    ///
    /// - Parameter managedObjectClasses: The classes to derive entities from.
    /// - Throws: ``ModelError`` when a declaration cannot become a property, for example a
    ///   default value that changes between instances. Other problems (an inverse that does not
    ///   exist) are reported when a coordinator first uses the model.
    public convenience init(managedObjectClasses: [ManagedObject.Type]) throws {
        var reflector = EntityReflector()
        for objectClass in managedObjectClasses {
            _ = try reflector.entity(for: objectClass)
        }
        self.init(entities: reflector.entities)
    }
}
