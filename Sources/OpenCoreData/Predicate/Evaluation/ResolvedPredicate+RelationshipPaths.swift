/// The relationships evaluating a predicate walks, so that a context can load them for every
/// row at once (``ManagedObjectContext/prefetch(_:for:)``) before it evaluates the conditions a
/// store left to memory, rather than faulting them in one object at a time: against a server
/// store, one round trip per relationship instead of one per row and relationship.
extension ResolvedPredicate {
    /// Key paths of relationships from the evaluated object (`"items"`, `"owner.things"`),
    /// those inside `SUBQUERY` included, continued from the subquery's collection.
    package var relationshipKeyPaths: [String] {
        var paths: Set<String> = []
        collectRelationshipKeyPaths(into: &paths, variables: [:])
        return paths.sorted()
    }

    fileprivate func collectRelationshipKeyPaths(into paths: inout Set<String>, variables: [String: String]) {
        switch self {
        case .constant:
            break
        case .not(let inner):
            inner.collectRelationshipKeyPaths(into: &paths, variables: variables)
        case .and(let parts), .or(let parts):
            for part in parts { part.collectRelationshipKeyPaths(into: &paths, variables: variables) }
        case .comparison(let comparison):
            comparison.lhs.collectRelationshipKeyPaths(into: &paths, variables: variables)
            comparison.rhs.collectRelationshipKeyPaths(into: &paths, variables: variables)
        }
    }
}

extension ResolvedExpression {
    fileprivate func collectRelationshipKeyPaths(into paths: inout Set<String>, variables: [String: String]) {
        switch self {
        case .constant, .list:
            break
        case .keyPath(let path):
            if let walked = path.relationshipKeyPath(variables) { paths.insert(walked) }
        case .subqueryCount(let subquery):
            guard let collection = subquery.collection.relationshipKeyPath(variables) else { return }
            paths.insert(collection)
            var inner = variables
            inner[subquery.variable] = collection
            subquery.predicate.collectRelationshipKeyPaths(into: &paths, variables: inner)
        }
    }
}

extension ResolvedKeyPath {
    /// The relationships the path walks before it reaches an attribute, an aggregate or a key
    /// read by name, as one key path from the evaluated object (a variable's steps continue the
    /// key path its subquery's collection has); nil when it walks none.
    fileprivate func relationshipKeyPath(_ variables: [String: String]) -> String? {
        var names: [String] = []
        switch root {
        case .object: break
        case .variable(let name):
            guard let collection = variables[name] else { return nil }
            names.append(collection)
        }
        let start = names.count
        walk: for step in steps {
            switch step {
            case .toOne(let relationship), .toMany(let relationship): names.append(relationship.name)
            default: break walk
            }
        }
        return names.count > start ? names.joined(separator: ".") : nil
    }
}
