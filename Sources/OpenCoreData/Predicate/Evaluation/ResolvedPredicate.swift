/// A predicate checked against an entity: key paths resolved to properties, constants converted
/// to the types they are compared with, variables of subqueries bound. The in-memory evaluator
/// and the SQL compiler both work from this form, so they agree on what every part means.
package indirect enum ResolvedPredicate: Sendable {
    case constant(Bool)
    case not(ResolvedPredicate)
    case and([ResolvedPredicate])
    case or([ResolvedPredicate])
    case comparison(ResolvedComparison)
}

package struct ResolvedComparison: Sendable {
    package var lhs: ResolvedExpression
    package var op: FetchPredicate.Operator
    package var rhs: ResolvedExpression
    package var modifier: FetchPredicate.Modifier
    package var options: FetchPredicate.Options
}

package indirect enum ResolvedExpression: Sendable {
    case constant(PropertyValue)
    case list([PropertyValue])
    case keyPath(ResolvedKeyPath)
    /// `SUBQUERY(collection, $variable, predicate).@count`.
    case subqueryCount(ResolvedSubquery)

    /// A key path that passes through a to-many relationship gives a collection of values.
    var isCollection: Bool {
        if case .keyPath(let path) = self { return path.isCollection }
        return false
    }

    var keyPath: ResolvedKeyPath? {
        if case .keyPath(let path) = self { return path }
        return nil
    }
}

package struct ResolvedSubquery: Sendable {
    /// The to-many key path whose elements are filtered.
    package var collection: ResolvedKeyPath
    package var variable: String
    package var predicate: ResolvedPredicate
}

/// A key path walked step by step from the evaluated object or a subquery variable.
package struct ResolvedKeyPath: Sendable {
    package enum Root: Sendable, Equatable {
        case object
        case variable(String)
    }

    package enum Step: Sendable {
        case attribute(AttributeDescription)
        case toOne(RelationshipDescription)
        case toMany(RelationshipDescription)
        /// `@count` of the collection so far.
        case count
        /// `@sum`, `@avg`, `@min`, `@max` of an attribute over the collection so far.
        case aggregate(AggregateFunction, AttributeDescription)
        /// A key read by name from something without an entity (a dictionary).
        case key(String)
        /// An aggregate of a key path read by name from each element (`@sum.items.price`); of the
        /// elements themselves for ``selfKey`` (`numbers.@max`, `numbers.@max.self`).
        case keyAggregate(AggregateFunction, [String])
    }

    /// The key that reads a value itself, as in key-value coding.
    package static let selfKey = "self"

    package enum AggregateFunction: String, Sendable {
        case sum = "@sum", avg = "@avg", min = "@min", max = "@max"
    }

    package var root: Root
    package var steps: [Step]
    /// The entity the path starts from; nil for key paths read by name.
    package var entity: EntityDescription?
    /// The path as written, for messages.
    package var text: String

    /// What the path yields.
    package var kind: ValueKind {
        guard let last = steps.last else { return entity.map(ValueKind.object) ?? .any }
        switch last {
        case .attribute(let attribute): return .attribute(attribute.attributeType)
        case .toOne(let relationship), .toMany(let relationship):
            return relationship.destinationEntity.map(ValueKind.object) ?? .any
        case .count: return .attribute(.integer64AttributeType)
        case .aggregate(let function, let attribute):
            return function == .avg ? .attribute(.doubleAttributeType) : .attribute(attribute.attributeType)
        case .key, .keyAggregate:
            return .any
        }
    }

    /// Whether the path is read by name, without an entity (from a dictionary or a value given to
    /// `evaluate(with:)`): what it yields, a value or an array, is known only when evaluated.
    package var isReadByName: Bool { entity == nil }

    /// Whether the path passes through a to-many relationship without aggregating it.
    package var isCollection: Bool {
        var collection = false
        for step in steps {
            switch step {
            case .toMany: collection = true
            case .count, .aggregate, .keyAggregate: collection = false
            default: break
            }
        }
        return collection
    }
}

/// The type of what an expression yields, for type checking.
package enum ValueKind: Sendable, Equatable {
    case attribute(AttributeType)
    case object(EntityDescription)
    case null
    case any

    var attributeType: AttributeType? {
        if case .attribute(let type) = self { return type }
        return nil
    }
}
