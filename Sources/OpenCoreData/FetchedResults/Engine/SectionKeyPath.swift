import Foundation

/// A controller's `sectionNameKeyPath`, checked against the fetched entity: attributes or to-one
/// relationships, reached through to-one relationships. Transient attributes are allowed (their
/// values are computed when objects load, so sectioning by one reads every object).
struct SectionKeyPath {
    let text: String
    let steps: [PropertyDescription]

    init(_ text: String, entity: EntityDescription) throws {
        var current = entity
        var steps: [PropertyDescription] = []
        let names = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, name) in names.enumerated() {
            let isLast = index == names.count - 1
            let property = current.property(named: name)
            let relationship = property as? RelationshipDescription
            guard let property, relationship?.isToMany != true, isLast || relationship != nil else {
                let reason = property == nil ? "\(current.entityName) has no property '\(name)'"
                    : relationship?.isToMany == true ? "'\(name)' is a to-many relationship"
                    : "'\(name)' is an attribute, so nothing can follow it"
                throw FetchRequestError(FetchRequestError.unknownKeyPath,
                                        "the section name key path '\(text)' does not fit \(entity.entityName): \(reason); use attributes or to-one relationships, through to-one relationships",
                                        entityName: entity.entityName, keyPath: text)
            }
            steps.append(property)
            if let destination = relationship?.destinationEntity { current = destination }
        }
        self.text = text
        self.steps = steps
    }

    /// The stored attribute of the fetched entity itself that the key path names, if it is one:
    /// then rows give section values without objects.
    var storedAttribute: AttributeDescription? {
        guard steps.count == 1, let attribute = steps[0] as? AttributeDescription, attribute.isPersistent else { return nil }
        return attribute
    }

    /// The first property on the path: changing it may change the section.
    var firstName: String { steps[0].name }

    /// The section value of an object, as it is now.
    func value(of object: ManagedObject) -> PropertyValue {
        ResultsSource.value(along: steps, of: object)
    }

    /// The section value in a row of the fetched entity, for a stored attribute.
    func value(in row: RowSnapshot) -> PropertyValue? {
        guard let attribute = storedAttribute else { return nil }
        return row.value(at: attribute.slot)
    }

    /// The section name for a value: Core Data's rules (strings as they are, numbers and dates by
    /// their description, booleans as 0 or 1, objects by their ID's URI, nil as "").
    func name(of value: PropertyValue) -> String {
        SectionNaming.name(of: value, type: (steps.last as? AttributeDescription)?.attributeType)
    }
}

/// Names and index titles of sections.
enum SectionNaming {
    static func name(of value: PropertyValue, type: AttributeType?) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .integer(let number): String(number)
        case .boolean(let flag): flag ? "1" : "0"
        case .double(let number): describe(number, asFloat: type == .floatAttributeType)
        case .decimal(let number): number.description
        case .date(let date): date.description
        case .data(let data): data.description
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .object(let id): id.uriRepresentation().absoluteString
        }
    }

    /// Numbers print as `NSNumber` does on Apple platforms: whole numbers without ".0".
    private static func describe(_ number: Double, asFloat: Bool) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return asFloat ? Float(number).description : number.description
    }

    /// The default index title: the name's first character, uppercased; nil for "".
    static func defaultIndexTitle(for name: String) -> String? {
        guard let first = name.first else { return nil }
        return String(first).uppercased()
    }
}
