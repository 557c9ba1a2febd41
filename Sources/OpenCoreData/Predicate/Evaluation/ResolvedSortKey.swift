/// A sort descriptor checked against an entity: an attribute reached through to-one
/// relationships (or the `@count` of a to-many reached so), a direction and a comparison.
package struct ResolvedSortKey: Sendable {
    package var path: ResolvedKeyPath
    /// The attribute sorted by; for a `@count`, an integer 64 attribute named `@count` that no
    /// entity has.
    package var attribute: AttributeDescription
    package var ascending: Bool
    package var comparison: FetchSortDescriptor.Comparison

    /// Orders two values of the key as both the store and memory do: nil first, strings by
    /// bytes, case-folded bytes or `localizedStandardCompare`, other values by value.
    package func compare(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Int {
        Self.compare(lhs, rhs, comparison: comparison, ascending: ascending)
    }

    /// The order of two values under a comparison and direction, without a sort key at hand (for
    /// loops that compare many values and should not copy the key each time).
    package static func compare(_ lhs: PropertyValue, _ rhs: PropertyValue,
                                comparison: FetchSortDescriptor.Comparison, ascending: Bool) -> Int {
        let order: Int
        switch (comparison, lhs, rhs) {
        case (.caseInsensitive, .string(let a), .string(let b)):
            order = StringMatching.compareBytes(StringMatching.fold(a, .caseInsensitive), StringMatching.fold(b, .caseInsensitive))
        case (.localizedStandard, .string(let a), .string(let b)):
            order = StringMatching.localizedStandardOrder(a, b)
        default:
            order = PropertyValue.compare(lhs, rhs)
        }
        return ascending ? order : -order
    }
}

extension FetchSortDescriptor {
    /// Resolves the descriptor's key path against an entity: it must reach an attribute through
    /// to-one relationships only, or end with a to-many relationship's `@count`.
    func resolved(for entity: EntityDescription) throws -> ResolvedSortKey {
        let components = key.split(separator: ".").map(String.init)
        var current = entity
        var steps: [ResolvedKeyPath.Step] = []
        for (index, name) in components.enumerated() {
            let isLast = index == components.count - 1
            switch current.property(named: name) {
            case let attribute as AttributeDescription where isLast:
                steps.append(.attribute(attribute))
                let path = ResolvedKeyPath(root: .object, steps: steps, entity: entity, text: key)
                return ResolvedSortKey(path: path, attribute: attribute, ascending: ascending, comparison: comparison)
            case let relationship as RelationshipDescription where !relationship.isToMany && !isLast:
                guard let destination = relationship.destinationEntity else { break }
                steps.append(.toOne(relationship))
                current = destination
                continue
            case let relationship as RelationshipDescription where relationship.isToMany && index == components.count - 2
                && components[index + 1] == "@count":
                steps += [.toMany(relationship), .count]
                let path = ResolvedKeyPath(root: .object, steps: steps, entity: entity, text: key)
                let count = AttributeDescription(name: "@count", type: .integer64AttributeType, isOptional: false)
                return ResolvedSortKey(path: path, attribute: count, ascending: ascending, comparison: comparison)
            case let relationship as RelationshipDescription where relationship.isToMany:
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "cannot sort \(entity.entityName) by '\(key)': it goes through the to-many relationship '\(name)' (only '\(name).@count' can be sorted by)",
                                        entityName: entity.entityName, keyPath: key)
            default:
                break
            }
            throw FetchRequestError(FetchRequestError.unknownKeyPath,
                                    "cannot sort \(entity.entityName) by '\(key)': \(current.entityName) has no \(isLast ? "attribute" : "to-one relationship") '\(name)'",
                                    entityName: entity.entityName, keyPath: key)
        }
        throw FetchRequestError(FetchRequestError.unknownKeyPath, "a sort descriptor has an empty key", entityName: entity.entityName)
    }
}
