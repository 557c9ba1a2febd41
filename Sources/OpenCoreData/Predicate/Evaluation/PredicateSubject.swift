import Foundation

/// Something a resolved predicate can be evaluated on: a managed object, a row of the in-memory
/// store, or a dictionary.
package protocol PredicateSubject {
    /// The object's identity, for comparisons with objects; nil for dictionaries.
    var subjectID: ManagedObjectID? { get }
    func attributeValue(_ attribute: AttributeDescription) -> PropertyValue
    func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)?
    func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject]
    /// A value read by name, for key paths without an entity.
    func rawValue(forKey key: String) -> Any?
}

extension ManagedObject: PredicateSubject {
    package var subjectID: ManagedObjectID? { objectID }

    package func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
        attributeValue(at: attribute.slot)
    }

    package func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? {
        toOneValue(at: relationship.slot)
    }

    package func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] {
        toManyValue(at: relationship.slot).sorted { $0.objectID.key < $1.objectID.key }
    }

    package func rawValue(forKey key: String) -> Any? {
        entity.property(named: key) == nil ? nil : value(forKey: key)
    }
}

/// A dictionary evaluated by key, as Core Data's `evaluate(with:)` allows: values are read by
/// the properties' names; nested dictionaries and managed objects continue key paths.
struct DictionarySubject: PredicateSubject {
    let values: [String: Any]

    var subjectID: ManagedObjectID? { nil }

    func attributeValue(_ attribute: AttributeDescription) -> PropertyValue {
        PropertyValue.coerce(values[attribute.name], to: attribute.attributeType) ?? .null
    }

    func toOneSubject(_ relationship: RelationshipDescription) -> (any PredicateSubject)? {
        Self.subject(values[relationship.name])
    }

    func toManySubjects(_ relationship: RelationshipDescription) -> [any PredicateSubject] {
        guard let sequence = flattenOptional(values[relationship.name]) as? any Sequence else { return [] }
        var result: [any PredicateSubject] = []
        for element in sequence {
            if let subject = Self.subject(element) { result.append(subject) }
        }
        return result
    }

    func rawValue(forKey key: String) -> Any? {
        values[key]
    }

    static func subject(_ value: Any?) -> (any PredicateSubject)? {
        switch flattenOptional(value) {
        case let object as ManagedObject: object
        case let dictionary as [String: Any]: DictionarySubject(values: dictionary)
        case let dictionary as NSDictionary:
            DictionarySubject(values: Dictionary(uniqueKeysWithValues: dictionary.compactMap { key, value in
                (key as? String).map { ($0, value) }
            }))
        default: nil
        }
    }
}
