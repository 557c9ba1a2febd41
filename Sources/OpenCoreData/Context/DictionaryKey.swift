/// A key of dictionary results: an attribute or to-one relationship, possibly through to-ones.
struct DictionaryKey {
    /// The key as the dictionaries name it: the key path.
    let name: String
    let steps: [PropertyDescription]

    init(_ path: String, entity: EntityDescription) throws {
        var current = entity
        var steps: [PropertyDescription] = []
        let names = path.split(separator: ".").map(String.init)
        for (index, name) in names.enumerated() {
            let property = current.property(named: name)
            let relationship = property as? RelationshipDescription
            guard let property, relationship?.isToMany != true, property.isPersistent,
                  property is AttributeDescription ? index == names.count - 1 : true else {
                throw FetchRequestError(FetchRequestError.unknownKeyPath,
                                        "\(entity.entityName) has no stored attribute or to-one relationship '\(path)' to fetch",
                                        entityName: entity.entityName, keyPath: path)
            }
            steps.append(property)
            if let destination = relationship?.destinationEntity { current = destination }
        }
        guard !steps.isEmpty else {
            throw FetchRequestError(FetchRequestError.unknownKeyPath, "an empty key cannot be fetched from \(entity.entityName)",
                                    entityName: entity.entityName, keyPath: path)
        }
        self.name = path
        self.steps = steps
    }

    /// The key an element of ``FetchRequest/propertiesToFetch`` or
    /// ``FetchRequest/propertiesToGroupBy`` names: a key path, or a property description.
    init(element: Any, entity: EntityDescription) throws {
        switch element {
        case let path as String: try self.init(path, entity: entity)
        case let property as PropertyDescription: try self.init(property.name, entity: entity)
        default:
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "\(type(of: element)) cannot name a key of \(entity.entityName)'s dictionaries; give a key path, a property description or an ExpressionDescription",
                                    entityName: entity.entityName)
        }
    }

    /// The key's value in a row, as stored: an attribute's value or a related object's ID.
    func storedValue(in row: RowSnapshot, context: ManagedObjectContext) -> PropertyValue {
        var value = row.value(at: steps[0].slot)
        for property in steps.dropFirst() {
            guard case .object(let id) = value else { return .null }
            value = context.object(with: id).currentSnapshot().value(at: property.slot)
        }
        return value
    }

    /// The key's value in a row, as dictionaries hold it.
    func value(in row: RowSnapshot, context: ManagedObjectContext) -> Any? {
        boxed(storedValue(in: row, context: context))
    }

    /// A stored value of this key as dictionaries hold it.
    func boxed(_ value: PropertyValue) -> Any? {
        if let attribute = steps.last as? AttributeDescription { return attribute.keyValue(of: value) }
        return value.objectID
    }
}
