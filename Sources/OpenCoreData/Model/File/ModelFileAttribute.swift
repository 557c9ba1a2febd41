import Foundation

/// Reads an `<attribute>` element into an ``AttributeDescription``.
enum ModelFileAttribute {
    /// Xcode's names for the attribute types (`attributeType="Integer 16"`).
    static let typesByName: [String: AttributeType] = [
        "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64,
        "Decimal": .decimal, "Double": .double, "Float": .float, "String": .string,
        "Boolean": .boolean, "Date": .date, "Binary": .binaryData, "UUID": .uuid, "URI": .uri,
        "Transformable": .transformable,
    ]

    static func read(_ element: ModelFileElement, entityName: String) throws(ModelError) -> AttributeDescription {
        var (name, fields) = try ModelFileAttributes.named(element, unnamed: "entity \(entityName), attribute") {
            "attribute \(entityName).\($0)"
        }
        let typeName = try fields.required("attributeType")
        guard let type = typesByName[typeName] else {
            throw ModelError(ModelError.unsupportedFeature, "\(fields.place) has type \(typeName), which is not supported yet; the supported types are \(typesByName.keys.sorted().joined(separator: ", "))")
        }
        let isDerived = try fields.flag("derived")
        let expression = fields.string("derivationExpression")
        if isDerived != (expression != nil) {
            throw ModelError(ModelError.invalidModelFile, "\(fields.place): derived=\"\(isDerived ? "YES" : "NO")\" needs \(isDerived ? "a" : "no") derivationExpression")
        }
        let (isOptional, defaultValue, isIndexed) = (try fields.flag("optional"), try defaultValue(of: type, &fields),
                                                     try fields.flag("indexed"))
        let attribute = expression.map { expression in
            let derived = DerivedAttributeDescription(name: name, type: type, isOptional: isOptional,
                                                      defaultValue: defaultValue, isIndexed: isIndexed)
            derived.derivationExpression = Derivation.parse(expression)
            return derived
        } ?? AttributeDescription(name: name, type: type, isOptional: isOptional, defaultValue: defaultValue, isIndexed: isIndexed)
        attribute.isTransient = try fields.flag("transient")
        attribute.allowsExternalBinaryDataStorage = try fields.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = try fields.flag("preserveAfterDeletion")
        try ModelFileValidation.apply(to: attribute, &fields)
        if type == .transformableAttributeType {
            attribute.valueTransformerName = fields.string("valueTransformerName")
            attribute.attributeValueClassName = fields.string("customClassName")
        }
        attribute.renamingIdentifier = fields.string("renamingIdentifier")
        attribute.versionHashModifier = fields.string("versionHashModifier")
        // usesScalarValueType only chooses the generated property's Swift type (`Int16` or
        // `NSNumber?`); `ocd generate` reads it from the file.
        fields.ignore(["usesScalarValueType", "elementID", "syncable", "spotlightIndexingEnabled", "allowsCloudEncryption"])
        try fields.finish()
        try element.requireChildren(among: ["userInfo"], place: fields.place)
        attribute.userInfo = try ModelFileUserInfo.read(element, place: fields.place)
        return attribute
    }

    /// The default value in the attribute's Swift type. Xcode writes it as text
    /// (`defaultValueString`), except for dates: seconds since 2001-01-01
    /// (`defaultDateTimeInterval`).
    private static func defaultValue(of type: AttributeType, _ fields: inout ModelFileAttributes) throws(ModelError) -> Any? {
        if let interval = fields.string("defaultDateTimeInterval") {
            guard type == .date, let seconds = Double(interval) else {
                throw ModelError(ModelError.invalidDefaultValue, "\(fields.place): defaultDateTimeInterval=\"\(interval)\" is not a date default")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        guard let text = fields.string("defaultValueString") else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let value: Any? = switch type {
        case .integer16AttributeType: Int16(trimmed)
        case .integer32AttributeType: Int32(trimmed)
        case .integer64AttributeType: Int64(trimmed)
        case .decimalAttributeType: Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        case .doubleAttributeType: Double(trimmed)
        case .floatAttributeType: Float(trimmed)
        case .booleanAttributeType: ["YES": true, "NO": false, "1": true, "0": false, "true": true, "false": false][trimmed]
        case .stringAttributeType: text
        case .UUIDAttributeType: UUID(uuidString: trimmed)
        case .URIAttributeType: URL(string: trimmed)
        case .dateAttributeType, .binaryDataAttributeType, .transformableAttributeType: nil
        }
        guard let value else {
            throw ModelError(ModelError.invalidDefaultValue, "\(fields.place): defaultValueString=\"\(text)\" is not a valid \(type)")
        }
        return value
    }
}

/// Reads the `<userInfo>` child of an element: `<entry key="…" value="…"/>` pairs.
enum ModelFileUserInfo {
    static func read(_ element: ModelFileElement, place: String) throws(ModelError) -> [AnyHashable: Any]? {
        let blocks = element.children(named: "userInfo")
        guard !blocks.isEmpty else { return nil }
        var info: [AnyHashable: Any] = [:]
        for block in blocks {
            try block.requireChildren(among: ["entry"], place: "\(place), userInfo")
            for entry in block.children {
                var fields = ModelFileAttributes(entry, place: "\(place), userInfo entry (line \(entry.line))")
                let key = try fields.required("key")
                info[key] = fields.string("value") ?? ""
                try fields.finish()
            }
        }
        return info
    }
}
