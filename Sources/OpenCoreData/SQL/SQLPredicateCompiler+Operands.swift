/// Operands: constants, key paths (columns through to-one joins, row keys, aggregates over
/// to-many relationships), `SUBQUERY(…).@count`, and the sort keys' `ORDER BY` terms.
extension SQLPredicateCompiler {
    func operand(_ expression: ResolvedExpression, in scope: SQLScope) -> SQLOperand? {
        switch expression {
        case .constant(let value):
            if case .object = value { return nil }
            return parameter(value)
        case .list:
            return nil
        case .keyPath(let path):
            guard !path.isCollection, let start = startAlias(of: path, in: scope) else { return nil }
            return value(of: path.steps[...], from: start, in: scope)
        case .subqueryCount(let subquery):
            guard let start = startAlias(of: subquery.collection, in: scope),
                  let chain = openChain(subquery.collection.steps[...], from: start, in: scope) else { return nil }
            chain.scope.bind(subquery.variable, to: chain.element)
            guard let test = condition(subquery.predicate, in: chain.scope, negated: false) else { return nil }
            return SQLOperand(fragment: test.wrapped { "(SELECT COUNT(*) FROM \(chain.from)\(chain.scope.joinSQL) WHERE \(chain.link) AND \($0))" },
                              type: .integer64AttributeType)
        }
    }

    func startAlias(of path: ResolvedKeyPath, in scope: SQLScope) -> String? {
        switch path.root {
        case .object: return scopeRootAlias(scope)
        case .variable(let name): return scope.alias(of: name)
        }
    }

    private func scopeRootAlias(_ scope: SQLScope) -> String {
        var current = scope
        while let parent = current.parent { current = parent }
        return current.alias
    }

    /// The single value a path yields from a row: a column through to-one joins, a row key, or
    /// an aggregate subquery over a to-many relationship.
    package func value(of steps: ArraySlice<ResolvedKeyPath.Step>, from start: String, in scope: SQLScope) -> SQLOperand? {
        var alias = start
        for index in steps.indices {
            switch steps[index] {
            case .attribute(let attribute):
                guard attribute.isPersistent else { return nil }
                return SQLOperand(fragment: SQLFragment(query.column(alias, attribute)), type: attribute.attributeType)
            case .toOne(let relationship):
                if index == steps.index(before: steps.endIndex) {
                    return SQLOperand(fragment: SQLFragment(query.column(alias, relationship)), isObject: true)
                }
                guard let joined = query.joinToOne(relationship, from: alias, in: scope) else { return nil }
                alias = joined
            case .toMany:
                return aggregate(steps[index...], from: alias, in: scope)
            case .count, .aggregate, .key, .keyAggregate:
                return nil
            }
        }
        return SQLOperand(fragment: SQLFragment(query.primaryKey(alias)), isObject: true)
    }

    /// `@count` or `@sum`/`@avg`/`@min`/`@max` over the collection `steps` leads to.
    private func aggregate(_ steps: ArraySlice<ResolvedKeyPath.Step>, from start: String, in scope: SQLScope) -> SQLOperand? {
        guard let last = steps.last, let chain = openChain(steps.dropLast(), from: start, in: scope) else { return nil }
        let source = "FROM \(chain.from)\(chain.scope.joinSQL) WHERE \(chain.link)"
        switch last {
        case .count:
            return SQLOperand(fragment: SQLFragment("(SELECT COUNT(*) \(source))"), type: .integer64AttributeType)
        case .aggregate(let function, let attribute):
            guard attribute.isPersistent,
                  let sql = dialect.aggregate(function, of: query.column(chain.element, attribute), type: attribute.attributeType,
                                              source: source) else { return nil }
            return SQLOperand(fragment: SQLFragment(sql), type: function == .avg ? .doubleAttributeType : attribute.attributeType)
        default:
            return nil
        }
    }

    /// A subquery over the elements a run of to-one and to-many steps reaches (the steps must
    /// include a to-many): its FROM clause, the link to the outer row, and the element alias.
    func openChain(_ steps: ArraySlice<ResolvedKeyPath.Step>, from start: String,
                   in scope: SQLScope) -> (from: String, link: String, element: String, scope: SQLScope)? {
        var alias = start
        var source: (from: String, link: String, element: String)?
        var nested: SQLScope?
        for step in steps {
            switch step {
            case .toOne(let relationship):
                guard let joined = query.joinToOne(relationship, from: alias, in: nested ?? scope) else { return nil }
                alias = joined
            case .toMany(let relationship):
                if let nested {
                    guard let joined = query.joinToMany(relationship, from: alias, in: nested) else { return nil }
                    alias = joined
                } else {
                    guard let opened = query.collectionSource(relationship, from: alias) else { return nil }
                    source = opened
                    nested = SQLScope(alias: opened.element, parent: scope)
                    alias = opened.element
                }
            default:
                return nil
            }
        }
        guard let source, let nested else { return nil }
        return (source.from, source.link, alias, nested)
    }

    // MARK: Sorting

    /// `ORDER BY` terms for sort keys, in the dialect's orders; nil when one cannot be written.
    package func orderTerms(_ keys: [ResolvedSortKey], in scope: SQLScope) -> [String]? {
        var terms: [String] = []
        for key in keys {
            guard let operand = value(of: key.path.steps[...], from: scope.alias, in: scope),
                  let term = dialect.orderTerm(operand.fragment.sql, type: key.attribute.attributeType,
                                               comparison: key.comparison, ascending: key.ascending) else { return nil }
            terms.append(term)
        }
        return terms
    }
}
