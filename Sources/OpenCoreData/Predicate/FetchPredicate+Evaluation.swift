import Foundation

extension FetchPredicate {
    /// Whether `object` meets the predicate: a managed object (key paths are its entity's
    /// properties, followed through relationships), a dictionary (key paths are its keys), or
    /// any other value, which is `SELF`: a string, a number, a date, an array or a set.
    ///
    /// ```swift
    /// let winning = try FetchPredicate(format: "wins >= 3")
    /// winning.evaluate(with: team)                        // true or false
    /// winning.evaluate(with: ["wins": 5])                 // true
    /// try FetchPredicate(format: "SELF IN %@", ["Stig", "Shaffiq"]).evaluate(with: "Shaffiq")   // true
    /// try FetchPredicate(format: "ANY SELF > 2").evaluate(with: [1, 3])                         // true
    /// ```
    ///
    /// Key paths of values other than managed objects are read by name, as key-value coding
    /// reads them: from dictionaries (and managed objects) inside arrays and dictionaries,
    /// through arrays (`ANY children.age > 12`, `'a' IN tags`, `SUBQUERY(scores, $s, $s > 2)`),
    /// with collection operators over arrays of values (`scores.@max`, `scores.@sum.self`).
    ///
    /// A predicate that does not fit the object (an unknown key, a value of the wrong type, an
    /// unbound variable) evaluates to false and logs why; ``validate(for:)`` reports such problems
    /// as errors. Core Data raises an exception instead.
    public func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: [:])
    }

    /// Whether `object` meets the predicate once `$VARIABLES` take the given values.
    public func evaluate(with object: Any?, substitutionVariables variables: [String: Any?]) -> Bool {
        do {
            let predicate = variables.isEmpty ? self : try withSubstitutionVariables(variables)
            switch flattenOptional(object) {
            case let managed as ManagedObject:
                return try predicate.matches(managed)
            case let value:
                try predicate.checkDepth()
                let resolved = try PredicateResolver(entity: nil).resolve(predicate.node)
                return try PredicateEvaluator().evaluate(resolved, onValue: PredicateEvaluator.value(of: value))
            }
        } catch {
            Log.context.error("predicate \(predicateFormat) cannot be evaluated: \(error)")
            return false
        }
    }

    /// Checks that the predicate fits an entity: every key path names properties, every value
    /// fits what it is compared with, and no variable is left unbound.
    ///
    /// - Throws: ``FetchRequestError`` naming the key path and entity, or
    ///   ``FetchRequestError/predicateTooDeep`` for a predicate built deeper than
    ///   ``maximumNestingDepth``.
    public func validate(for entity: EntityDescription) throws {
        _ = try resolved(for: entity)
    }

    func resolved(for entity: EntityDescription) throws -> ResolvedPredicate {
        try checkDepth()
        return try PredicateResolver(entity: entity).resolve(node)
    }

    /// Whether a managed object meets the predicate, or an error if the predicate does not fit
    /// the object's entity.
    func matches(_ object: ManagedObject) throws -> Bool {
        try PredicateEvaluator().evaluate(try resolved(for: object.entity), on: object)
    }
}
