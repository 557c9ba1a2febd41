/// Reads an `<entity>` element into an ``EntityDescription``; its superentity is linked by
/// ``ModelFileReader`` once every entity is read.
enum ModelFileEntity {
    struct Read {
        var entity: EntityDescription
        var parentName: String?
    }

    static func read(_ element: ModelFileElement) throws(ModelError) -> Read {
        var (name, fields) = try ModelFileAttributes.named(element, unnamed: "entity") { "entity \($0)" }
        let place = fields.place
        let entity = EntityDescription(name: name)
        entity.isAbstract = try fields.flag("isAbstract")
        if let className = fields.string("representedClassName"), !className.isEmpty {
            entity.managedObjectClassName = className
        }
        entity.renamingIdentifier = fields.string("renamingIdentifier")
        entity.versionHashModifier = fields.string("versionHashModifier")
        let parentName = fields.string("parentEntity")
        // codeGenerationType tells `ocd generate` what to write; it changes nothing at run time.
        fields.ignore(["codeGenerationType", "elementID", "syncable", "spotlightIndexingEnabled"])
        try fields.finish()

        try element.requireChildren(among: ["attribute", "relationship", "fetchIndex", "compoundIndexes",
                                            "uniquenessConstraints", "userInfo", "fetchedProperty"], place: place)
        if let fetched = element.children(named: "fetchedProperty").first {
            throw ModelError(ModelError.unsupportedFeature, "\(place): the fetched property '\(fetched.attributes["name"] ?? "")' (line \(fetched.line)) is not supported yet; fetch its objects with a fetch request")
        }
        var properties: [PropertyDescription] = []
        for child in element.children {
            switch child.name {
            case "attribute": properties.append(try ModelFileAttribute.read(child, entityName: name))
            case "relationship": properties.append(try ModelFileRelationship.read(child, entityName: name))
            default: continue
            }
        }
        entity.properties = properties
        entity.indexes = try ModelFileIndexes.fetchIndexes(of: element, place: place)
        entity.uniquenessConstraints = try ModelFileIndexes.uniquenessConstraints(of: element, place: place)
        entity.userInfo = try ModelFileUserInfo.read(element, place: place)
        return Read(entity: entity, parentName: parentName)
    }
}

/// Reads an entity's indexes (`<fetchIndex>`, and the older `<compoundIndexes>`) and its
/// `<uniquenessConstraints>`.
enum ModelFileIndexes {
    static func fetchIndexes(of entity: ModelFileElement, place: String) throws(ModelError) -> [FetchIndexDescription] {
        var indexes: [FetchIndexDescription] = []
        for index in entity.children(named: "fetchIndex") {
            var fields = ModelFileAttributes(index, place: "\(place), fetch index (line \(index.line))")
            let name = try fields.required("name")
            try fields.finish()
            try index.requireChildren(among: ["fetchIndexElement"], place: fields.place)
            var elements: [FetchIndexElementDescription] = []
            for element in index.children {
                var elementFields = ModelFileAttributes(element, place: "\(place), fetch index \(name) (line \(element.line))")
                let property = try elementFields.required("property")
                if let kind = elementFields.string("type"), kind != "Binary" {
                    throw ModelError(ModelError.unsupportedFeature, "\(elementFields.place): a \(kind) index element is not supported; only Binary (ordinary) indexes are")
                }
                let order = elementFields.string("order") ?? "ascending"
                guard order == "ascending" || order == "descending" else {
                    throw ModelError(ModelError.invalidModelFile, "\(elementFields.place): order=\"\(order)\" is neither ascending nor descending")
                }
                try elementFields.finish()
                elements.append(FetchIndexElementDescription(propertyName: property, ascending: order == "ascending"))
            }
            indexes.append(FetchIndexDescription(name: name, elements: elements))
        }
        // Before Xcode 9: `<compoundIndexes><compoundIndex><index value="a"/>…`, each ascending.
        for block in entity.children(named: "compoundIndexes") {
            try block.requireChildren(among: ["compoundIndex"], place: "\(place), compoundIndexes")
            for (number, compound) in block.children.enumerated() {
                let names = try values(of: compound, element: "index", place: "\(place), compound index (line \(compound.line))")
                indexes.append(FetchIndexDescription(name: "compoundIndex\(number + 1)",
                                                     elements: names.map { FetchIndexElementDescription(propertyName: $0) }))
            }
        }
        return indexes
    }

    static func uniquenessConstraints(of entity: ModelFileElement, place: String) throws(ModelError) -> [[String]] {
        var constraints: [[String]] = []
        for block in entity.children(named: "uniquenessConstraints") {
            try block.requireChildren(among: ["uniquenessConstraint"], place: "\(place), uniquenessConstraints")
            for constraint in block.children {
                constraints.append(try values(of: constraint, element: "constraint",
                                              place: "\(place), uniqueness constraint (line \(constraint.line))"))
            }
        }
        return constraints
    }

    /// The `value` of each child of `parent`, which must all be `<element value="…"/>`.
    private static func values(of parent: ModelFileElement, element: String, place: String) throws(ModelError) -> [String] {
        try ModelFileAttributes(parent, place: place).finish()
        try parent.requireChildren(among: [element], place: place)
        var values: [String] = []
        for child in parent.children {
            var childFields = ModelFileAttributes(child, place: "\(place), <\(element)> (line \(child.line))")
            values.append(try childFields.required("value"))
            try childFields.finish()
        }
        return values
    }
}
