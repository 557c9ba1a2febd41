import Foundation
import OpenCoreData

/// An object's stored values as JSON: every attribute, and each to-one relationship as its
/// destination's object ID URI. To-many relationships are left out: they can be large, and
/// fetching their other end lists them.
enum ObjectValues {
    /// The object's ID as `ocd` prints it: its URI (`x-coredata://STORE/Entity/p3`).
    static func id(_ objectID: ManagedObjectID) -> String {
        objectID.uriRepresentation().absoluteString
    }

    /// `Entity/p3`: an ID's URI without the store, for text output.
    static func shortID(_ uri: String) -> String {
        uri.split(separator: "/").suffix(2).joined(separator: "/")
    }

    /// The names of the values ``values(of:)`` gives for an entity's objects, in declaration order
    /// (inherited first).
    static func keys(of entity: EntityDescription) -> [String] {
        properties(of: entity).map(\.name)
    }

    /// `name=milk done=false`: values in the order of `keys`, then any others (a subentity's) by
    /// name.
    static func text(_ values: [String: JSONValue], keys: [String]) -> String {
        let others = values.keys.filter { !keys.contains($0) }.sorted()
        return (keys + others).compactMap { key in values[key].map { "\(key)=\($0.text)" } }.joined(separator: " ")
    }

    static func values(of object: ManagedObject) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for property in properties(of: object.entity) {
            values[property.name] = json(object.value(forKey: property.name), of: property)
        }
        return values
    }

    private static func properties(of entity: EntityDescription) -> [PropertyDescription] {
        var chain: [EntityDescription] = []
        var current: EntityDescription? = entity
        while let next = current {
            chain.insert(next, at: 0)
            current = next.superentity
        }
        return chain.flatMap(\.properties).filter { property in
            if let relationship = property as? RelationshipDescription { return !relationship.isToMany }
            return !property.isTransient
        }
    }

    /// A value as ``ManagedObject/value(forKey:)`` returns it, as JSON: numbers as numbers,
    /// dates in ISO 8601, data in base 64, UUIDs, URLs and objects' IDs as strings.
    static func json(_ value: Any?, of property: PropertyDescription) -> JSONValue {
        guard let value else { return .null }
        if let destination = value as? ManagedObject { return .string(id(destination.objectID)) }
        guard let attribute = property as? AttributeDescription else { return .null }
        switch (attribute.attributeType, value) {
        case (.booleanAttributeType, let number as NSNumber): return .bool(number.boolValue)
        case (.integer16AttributeType, let number as NSNumber), (.integer32AttributeType, let number as NSNumber),
             (.integer64AttributeType, let number as NSNumber):
            return .integer(number.int64Value)
        case (.floatAttributeType, let number as NSNumber):
            // The float's shortest decimal form (0.1, not 0.10000000149011612).
            let float = number.floatValue
            return .number(Double("\(float)") ?? Double(float))
        case (.decimalAttributeType, let number as NSDecimalNumber): return .decimal(number.decimalValue)
        case (_, let number as NSNumber): return .number(number.doubleValue)
        case (_, let string as String): return .string(string)
        case (_, let date as Date): return .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case (_, let data as Data): return .string(data.base64EncodedString())
        case (_, let uuid as UUID): return .string(uuid.uuidString)
        case (_, let url as URL): return .string(url.absoluteString)
        default: return .string("\(value)")
        }
    }
}
