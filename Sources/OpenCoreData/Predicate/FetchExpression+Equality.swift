import Foundation

// Expressions are equal as Foundation's are (`NSExpression.isEqual:` compares constants with
// `isEqual:`): numbers by value whatever their type, so `10`, `10.0`, `YES` (1) and a decimal
// 10 are the same constant. That is also what makes printing round-trip: Core Data prints the
// double 10 as `10` and `YES` as `1`, which parse back as integers. Likewise a key path of no
// keys is what it starts from: `SELF`, or the variable.

extension FetchExpression.Node {
    /// The node with a key path of no keys written as what it starts from.
    private var canonical: FetchExpression.Node {
        guard case .keyPath(let root, let components) = self, components.isEmpty else { return self }
        switch root {
        case .object: return .evaluatedObject
        case .variable(let name): return .variable(name)
        }
    }

    package static func == (lhs: FetchExpression.Node, rhs: FetchExpression.Node) -> Bool {
        switch (lhs.canonical, rhs.canonical) {
        case (.constant(let a), .constant(let b)):
            return a.isPredicateEquivalent(to: b)
        case (.list(let a), .list(let b)):
            return a == b
        case (.keyPath(let rootA, let componentsA), .keyPath(let rootB, let componentsB)):
            return rootA == rootB && componentsA == componentsB
        case (.variable(let a), .variable(let b)):
            return a == b
        case (.evaluatedObject, .evaluatedObject):
            return true
        case (.subquery(let collectionA, let variableA, let predicateA), .subquery(let collectionB, let variableB, let predicateB)),
             (.subqueryCount(let collectionA, let variableA, let predicateA),
              .subqueryCount(let collectionB, let variableB, let predicateB)):
            return collectionA == collectionB && variableA == variableB && predicateA == predicateB
        case (.function(let nameA, let argumentsA), .function(let nameB, let argumentsB)):
            return nameA == nameB && argumentsA == argumentsB
        default:
            return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch canonical {
        case .constant(let value):
            hasher.combine(0)
            value.hashAsPredicateConstant(into: &hasher)
        case .list(let elements):
            hasher.combine(1)
            hasher.combine(elements)
        case .keyPath(let root, let components):
            hasher.combine(2)
            hasher.combine(root)
            hasher.combine(components)
        case .variable(let name):
            hasher.combine(3)
            hasher.combine(name)
        case .evaluatedObject:
            hasher.combine(4)
        case .subquery(let collection, let variable, let predicate):
            hasher.combine(5)
            hasher.combine(collection)
            hasher.combine(variable)
            hasher.combine(predicate)
        case .subqueryCount(let collection, let variable, let predicate):
            hasher.combine(6)
            hasher.combine(collection)
            hasher.combine(variable)
            hasher.combine(predicate)
        case .function(let name, let arguments):
            hasher.combine(7)
            hasher.combine(name)
            hasher.combine(arguments)
        }
    }
}

extension PropertyValue {
    /// Equality of predicate constants: numbers (booleans included) by value, exactly; other
    /// values, decimals between themselves included, as they are. A NaN constant is the same
    /// constant as another NaN (it still equals no value when evaluated), so that a predicate
    /// holding one reads back equal to itself.
    fileprivate func isPredicateEquivalent(to other: PropertyValue) -> Bool {
        if case .decimal = self, case .decimal = other { return self == other }
        if isNaN || other.isNaN { return isNaN && other.isNaN && (numericValue == nil) == (other.numericValue == nil) }
        guard numericValue != nil, other.numericValue != nil else { return self == other }
        return PropertyValue.compare(self, other) == 0
    }

    /// Hashes numbers by their value as a double (equal numbers give equal doubles), so that
    /// hashing agrees with `isPredicateEquivalent(to:)`.
    fileprivate func hashAsPredicateConstant(into hasher: inout Hasher) {
        if isNaN {
            hasher.combine(numericValue == nil ? "NaN date" : "NaN")
        } else if let number = numericValue {
            hasher.combine(number == 0 ? 0 : number)
        } else {
            hasher.combine(self)
        }
    }
}
