import Foundation

/// How a derived attribute's value is computed, checked against the model when it is compiled.
package enum Derivation {
    /// Through to-one relationships to an attribute: `author.name`.
    case keyPath([RelationshipDescription], AttributeDescription)
    /// `books.@count`
    case count(RelationshipDescription)
    /// `books.@sum.pages`, and `@avg`, `@min`, `@max`.
    case aggregate(ResolvedKeyPath.AggregateFunction, RelationshipDescription, AttributeDescription)
    /// `now()`
    case now
    /// `lowercase:(name)`, or `canonical:(name)` when `folding` diacritics too.
    case lowercase([RelationshipDescription], AttributeDescription, foldsDiacritics: Bool)

    /// The relationship the value is read through, whose destination's changes it follows.
    var relationship: RelationshipDescription? {
        switch self {
        case .keyPath(let path, _), .lowercase(let path, _, _): path.first
        case .count(let relationship), .aggregate(_, let relationship, _): relationship
        case .now: nil
        }
    }

    /// The value for `object`, in storage form.
    func value(of object: ManagedObject) -> PropertyValue {
        switch self {
        case .keyPath(let path, let attribute):
            return Self.destination(of: object, through: path)?.attributeValue(at: attribute.slot) ?? .null
        case .count(let relationship):
            return .integer(Int64(object.toManyValue(at: relationship.slot).count))
        case .aggregate(let function, let relationship, let attribute):
            let values = object.toManyValue(at: relationship.slot).map { $0.attributeValue(at: attribute.slot) }
            return PredicateEvaluator.aggregate(function, values.filter { !$0.isNull })
        case .now:
            return .date(Date())
        case .lowercase(let path, let attribute, let foldsDiacritics):
            guard case .string(let text)? = Self.destination(of: object, through: path)?.attributeValue(at: attribute.slot) else { return .null }
            let options: String.CompareOptions = foldsDiacritics ? [.caseInsensitive, .diacriticInsensitive] : [.caseInsensitive]
            return .string(text.folding(options: options, locale: nil).lowercased())
        }
    }

    private static func destination(of object: ManagedObject, through path: [RelationshipDescription]) -> ManagedObject? {
        var current: ManagedObject? = object
        for relationship in path { current = current?.toOneValue(at: relationship.slot) }
        return current
    }
}

// MARK: Compiling

extension Derivation {
    /// The derivation of `attribute` from `expression`, or an error naming what does not fit.
    static func compile(_ expression: FetchExpression?, for attribute: AttributeDescription,
                        in entity: EntityDescription) throws(ModelError) -> Derivation {
        let place = "derived attribute \(entity.entityName).\(attribute.name)"
        let type = attribute.attributeType
        func fail(_ message: String) -> ModelError {
            ModelError(ModelError.invalidDeclaration, "\(place): \(message)")
        }
        switch expression?.node {
        case .function(let name, let arguments)? where name == "now" || name == "now:":
            guard arguments.isEmpty, type == .date else { throw fail("now() needs no arguments and a date attribute") }
            return .now
        case .function(let name, let arguments)? where name == "lowercase:" || name == "canonical:":
            guard arguments.count == 1, case .keyPath(.object, let components) = arguments[0] else {
                throw fail("\(name) takes one key path")
            }
            let (path, source) = try toOnePath(components, from: entity, fail)
            guard source.attributeType == .string, type == .string else { throw fail("\(name) needs a string attribute and gives a string") }
            return .lowercase(path, source, foldsDiacritics: name == "canonical:")
        case .keyPath(.object, let components)?:
            if let operatorIndex = components.firstIndex(where: { $0.hasPrefix("@") }) {
                return try aggregate(components, operatorIndex, type: type, from: entity, fail)
            }
            let (path, source) = try toOnePath(components, from: entity, fail)
            guard source.attributeType == type else {
                throw fail("\(components.joined(separator: ".")) is a \(source.attributeType), the attribute a \(type)")
            }
            return .keyPath(path, source)
        default:
            throw fail("\(expression?.description ?? "no derivation expression") is not supported; derive from a key path (author.name), a to-many's @count, @sum, @avg, @min or @max, now(), lowercase:(key) or canonical:(key)")
        }
    }

    /// `rel.@count` or `rel.@sum.key`.
    private static func aggregate(_ components: [String], _ operatorIndex: Int, type: AttributeType,
                                  from entity: EntityDescription, _ fail: (String) -> ModelError) throws(ModelError) -> Derivation {
        let text = components.joined(separator: ".")
        guard operatorIndex == 1, let relationship = entity.property(named: components[0]) as? RelationshipDescription,
              relationship.isToMany, let destination = relationship.destinationEntity else {
            throw fail("\(text) needs a to-many relationship of \(entity.entityName) before its collection operator")
        }
        if components[1] == "@count" {
            guard components.count == 2, type.isInteger else { throw fail("\(text) counts into an integer attribute") }
            return .count(relationship)
        }
        let functions: [String: ResolvedKeyPath.AggregateFunction] = ["@sum": .sum, "@avg": .avg, "@min": .min, "@max": .max]
        guard let function = functions[components[1]], components.count == 3,
              let source = destination.property(named: components[2]) as? AttributeDescription, source.isPersistent else {
            throw fail("\(text) is not a collection operator (@count, @sum, @avg, @min, @max) of an attribute of \(destination.entityName)")
        }
        let fits = switch function {
        case .sum, .avg: source.attributeType.isNumeric && type.isNumeric
        case .min, .max: source.attributeType == type || (source.attributeType.isNumeric && type.isNumeric)
        }
        guard fits else { throw fail("\(text) over a \(source.attributeType) does not give a \(type)") }
        return .aggregate(function, relationship, source)
    }

    /// A key path through to-one relationships to an attribute.
    private static func toOnePath(_ components: [String], from entity: EntityDescription,
                                  _ fail: (String) -> ModelError) throws(ModelError) -> ([RelationshipDescription], AttributeDescription) {
        var current = entity
        var path: [RelationshipDescription] = []
        for (index, name) in components.enumerated() {
            let property = current.property(named: name)
            if index == components.count - 1, let attribute = property as? AttributeDescription, !(attribute is DerivedAttributeDescription) {
                return (path, attribute)
            }
            guard let relationship = property as? RelationshipDescription, !relationship.isToMany,
                  let destination = relationship.destinationEntity else { break }
            path.append(relationship)
            current = destination
        }
        throw fail("\(components.joined(separator: ".")) is not a key path through to-one relationships of \(entity.entityName) to an attribute that is not derived")
    }

    /// A model file's `derivationExpression`: `now()`, `lowercase:(name)`, `canonical:(name)`, or a key path.
    static func parse(_ text: String) -> FetchExpression {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            let name = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
            let argument = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            return FetchExpression(forFunction: name, arguments: argument.isEmpty ? [] : [.keyPath(argument)])
        }
        return .keyPath(trimmed)
    }
}
