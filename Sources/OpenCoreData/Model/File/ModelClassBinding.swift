/// Binds the entities of a model read from a file to their classes, by the class name the file
/// gives each entity (`representedClassName`), and checks that each class's `@Managed`
/// declarations agree with its entity, so that a mismatch is a thrown error at load time
/// instead of a wrong value or a stopped program at the first access.
struct ModelClassBinding {
    let classes: [ManagedObject.Type]
    /// Modules to look unqualified class names up in (`.Book` in module `Library` is
    /// `Library.Book`), when the class is not among ``classes``.
    var modules: [String] = []

    func bind(_ model: ManagedObjectModel) throws(ModelError) {
        var unused = Dictionary(classes.map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { first, _ in first })
        var found: [(entity: EntityDescription, objectClass: ManagedObject.Type, wasGiven: Bool)] = []
        for entity in model.entities {
            guard let (objectClass, wasGiven) = try lookUp(entity.managedObjectClassName, for: entity) else { continue }
            unused[ObjectIdentifier(objectClass)] = nil
            found.append((entity, objectClass, wasGiven))
            // Bound before the checks, which compare relationships' classes with their
            // destinations' classes.
            entity.managedObjectClass = objectClass
        }
        if let stray = unused.values.map({ String(reflecting: $0) }).sorted().first {
            throw ModelError(ModelError.invalidDeclaration, "class \(stray) was given as a managed object class, but no entity of the model names it as its class (representedClassName)")
        }
        let entitiesByName = model.entitiesByName
        for (entity, objectClass, wasGiven) in found {
            do throws(ModelError) {
                try checkDeclarations(of: objectClass, against: entity, entitiesByName: entitiesByName)
                entity.managedObjectClassName = String(reflecting: objectClass)
            } catch where !wasGiven {
                // A class found by name alone may be another version's: an app's classes follow
                // its current model, and an earlier version loaded to migrate from has other
                // properties. Its objects are plain managed objects, as for a class not found.
                Log.store.warning("\(error.message); entity \(entity.entityName) of \(model.name ?? "the model") keeps ManagedObject objects")
                entity.managedObjectClass = ManagedObject.self
            }
        }
    }

    /// The class named `written`: among ``classes`` by its name (qualified by a module only if
    /// `written` is), else by the Swift run time's lookup in ``modules``; and whether it was given.
    private func lookUp(_ written: String, for entity: EntityDescription) throws(ModelError) -> (ManagedObject.Type, wasGiven: Bool)? {
        // Xcode writes ".Book" for a class in the "current product module".
        let className = written.hasPrefix(".") ? String(written.dropFirst()) : written
        if className.isEmpty || className == "NSManagedObject" || className == "ManagedObject" { return nil }
        let isQualified = className.contains(".")
        let matches = classes.filter { (isQualified ? String(reflecting: $0) : String(describing: $0)) == className }
        if matches.count > 1 {
            throw ModelError(ModelError.invalidDeclaration, "entity \(entity.entityName)'s class \(className) matches \(matches.map { String(reflecting: $0) }.joined(separator: " and ")); qualify representedClassName with its module")
        }
        if let match = matches.first { return (match, true) }
        let candidates = isQualified ? [className] : modules.map { "\($0).\(className)" }
        for candidate in candidates {
            // The standard library's lookup by name: public, and stable across releases,
            // though underscored; it finds non-generic classes on every platform.
            if let found = _typeByName(candidate) as? ManagedObject.Type { return (found, false) }
        }
        return nil
    }

    private func checkDeclarations(of objectClass: ManagedObject.Type, against entity: EntityDescription,
                                   entitiesByName: [String: EntityDescription]) throws(ModelError) {
        let fileProperties = entity.propertiesByName
        let here = "class \(String(reflecting: objectClass)) (entity \(entity.entityName))"
        for (name, kind) in Self.declarations(of: objectClass) {
            guard let property = fileProperties[name] else {
                throw ModelError(ModelError.invalidDeclaration, "\(here) declares @Managed \(name), which the entity does not have")
            }
            switch (kind, property) {
            case let (.attribute(type, _), attribute as AttributeDescription):
                guard type == attribute.attributeType else {
                    throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) as \(type), but the model file says \(attribute.attributeType); use the Swift type of a \(attribute.attributeType) attribute")
                }
            case let (.number, attribute as AttributeDescription):
                guard Self.numberTypes.contains(attribute.attributeType) else {
                    throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) as an NSNumber, but the model file's \(name) is a \(attribute.attributeType), not a number")
                }
            case let (.codable(type), attribute as AttributeDescription):
                guard attribute.attributeType == .transformableAttributeType else {
                    throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) as \(type), a Codable value, but the model file's \(name) is a \(attribute.attributeType), not Transformable")
                }
                // Without a transformer named in the file, the value is kept as JSON, as when the
                // model is declared in code.
                if attribute.valueTransformerName?.isEmpty ?? true { attribute.codableValueType = type }
            case let (.toOne(declaredClass), relationship as RelationshipDescription),
                 let (.toMany(declaredClass), relationship as RelationshipDescription),
                 let (.orderedToMany(declaredClass), relationship as RelationshipDescription):
                // An array reads an unordered relationship by key, a set an ordered one without its order.
                let declaresToMany = if case .toOne = kind { false } else { true }
                guard declaresToMany == relationship.isToMany else {
                    throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) as a \(declaresToMany ? "to-many" : "to-one") relationship, but the model file's is \(relationship.isToMany ? "to-many" : "to-one")")
                }
                // A declaration may hold a superclass of the destination's class, not another class.
                let destination = relationship.destinationEntityName.flatMap { entitiesByName[$0] }
                if let destination, destination.managedObjectClass != ManagedObject.self,
                   !inherits(destination.managedObjectClass, from: declaredClass) {
                    throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) with objects of class \(String(reflecting: declaredClass)), but its destination \(destination.entityName) has class \(String(reflecting: destination.managedObjectClass))")
                }
            default:
                let declaresAttribute = switch kind {
                case .attribute, .number, .codable: true
                case .toOne, .toMany, .orderedToMany: false
                }
                throw ModelError(ModelError.invalidDeclaration, "\(here) declares \(name) as \(declaresAttribute ? "an attribute" : "a relationship"), but the model file's \(name) is \(property is AttributeDescription ? "an attribute" : "a relationship")")
            }
        }
    }

    private static let numberTypes: Set<AttributeType> = [
        .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean,
    ]

    /// The `@Managed` declarations of a class and its superclasses, read from a prototype as
    /// ``EntityReflector`` reads them, by name.
    private static func declarations(of objectClass: ManagedObject.Type) -> [(String, _ManagedPropertyKind)] {
        var declarations: [(String, _ManagedPropertyKind)] = []
        var mirror: Mirror? = Mirror(reflecting: objectClass.init(entity: EntityReflector.placeholder, insertInto: nil))
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"),
                      let declaration = child.value as? any AnyManagedDeclaration else { continue }
                declarations.append((String(label.dropFirst()), declaration.kind))
            }
            mirror = current.superclassMirror
        }
        return declarations
    }
}

/// Whether `subclass` is `base` or inherits from it.
private func inherits(_ subclass: AnyClass, from base: AnyClass) -> Bool {
    var current: AnyClass? = subclass
    while let candidate = current {
        if candidate == base { return true }
        current = _getSuperclass(candidate)
    }
    return false
}
