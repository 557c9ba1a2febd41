import Foundation

/// Checks a predicate against an entity and produces its ``ResolvedPredicate``: every key path
/// must name properties, every constant must fit what it is compared with, every variable must
/// be bound. Errors name the key path and the entity.
struct PredicateResolver {
    /// The entity key paths start from; nil resolves key paths by name, unchecked (dictionaries).
    let entity: EntityDescription?
    /// Subquery variables in scope, with the entity of their elements.
    private var scope: [String: EntityDescription?] = [:]

    init(entity: EntityDescription?) {
        self.entity = entity
    }

    private var entityName: String { entity?.entityName ?? "a dictionary" }

    func resolve(_ node: FetchPredicate.Node) throws -> ResolvedPredicate {
        switch node {
        case .constant(let value): return .constant(value)
        case .not(let inner): return .not(try resolve(inner))
        case .and(let nodes): return .and(try nodes.map(resolve))
        case .or(let nodes): return .or(try nodes.map(resolve))
        case .comparison(let comparison): return .comparison(try resolve(comparison))
        }
    }

    // MARK: Comparisons

    private func resolve(_ comparison: FetchPredicate.Comparison) throws -> ResolvedComparison {
        var lhs = try resolve(comparison.lhs)
        var rhs = try resolve(comparison.rhs)
        var op = comparison.op
        var modifier = comparison.modifier
        // Put the key path on the left: `3 < wins` is `wins > 3`, `%@ IN players` is `ANY players == %@`.
        // A key path read by name may stay on the right (`"a" IN tags`): what it holds, an array
        // or a string, is known only when it is evaluated.
        if lhs.keyPath == nil, let path = rhs.keyPath {
            if op == .in, rhs.isCollection {
                swap(&lhs, &rhs)
                op = .equalTo
                modifier = .any
            } else if let flipped = op.flipped {
                swap(&lhs, &rhs)
                op = flipped
            } else if !path.isReadByName {
                throw mismatch("\(comparison.op) needs the key path on its left side", comparison.rhs)
            }
        }
        // A collection CONTAINS a value means ANY element equals it.
        if op == .contains, modifier == .direct, lhs.isCollection {
            op = .equalTo
            modifier = .any
        }
        if modifier != .direct, !lhs.isCollection, let path = lhs.keyPath, !path.isReadByName {
            throw FetchRequestError(FetchRequestError.typeMismatch,
                                    "ANY, ALL and NONE need a key path through a to-many relationship; '\(lhs.keyPath?.text ?? "")' of \(entityName) is not one",
                                    entityName: entity?.entityName, keyPath: lhs.keyPath?.text)
        }
        try checkModifierOperand(modifier, lhs, written: comparison.lhs)
        try refuseNUL(in: lhs)
        try refuseNUL(in: rhs)
        rhs = try check(lhs, op, rhs, options: comparison.options)
        return ResolvedComparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: comparison.options)
    }

    /// Checks that the two sides can be compared with `op`, converting constants to the left
    /// side's type where Core Data would (numbers to decimals for a decimal attribute).
    private func check(_ lhs: ResolvedExpression, _ op: FetchPredicate.Operator, _ rhs: ResolvedExpression,
                       options: FetchPredicate.Options) throws -> ResolvedExpression {
        let left = kind(of: lhs)
        let name = lhs.keyPath?.text ?? "value"
        // CONTAINS on a single value is substring search (collections were rewritten to ANY ==).
        if !options.isEmpty || op.isStringOperator || op == .contains {
            guard left == .attribute(.stringAttributeType) || left == .null || left == .any else {
                throw FetchRequestError(FetchRequestError.typeMismatch,
                                        "\(describe(name)) is \(describe(left)); \(op.isStringOperator ? "\(op)" : "[c] and [d]") apply to strings only",
                                        entityName: entity?.entityName, keyPath: name)
            }
        }
        switch rhs {
        case .constant(let value):
            if op == .in || op == .between {
                // `name IN "text"` is a substring test, for values read by name.
                let substring = op == .in && left == .any && value.text != nil
                guard value.isNull || substring else {
                    throw mismatch("\(op) needs a list on its right side, as in \(op == .between ? "{low, high}" : "{a, b}")", name)
                }
            }
            return .constant(try fit(value, to: left, name: name, op: op))
        case .list(let values):
            guard op == .in || op == .between || op == .equalTo || op == .notEqualTo else {
                throw mismatch("\(op) cannot take a list", name)
            }
            if op == .between, values.count != 2 {
                throw mismatch("BETWEEN needs exactly two values, {low, high}; got \(values.count)", name)
            }
            return .list(try values.map { try fit($0, to: left, name: name, op: op) })
        case .keyPath(let path):
            guard (op != .in && op != .between) || path.isReadByName else {
                throw mismatch("\(op) needs a list on its right side, or a to-many key path with the value on the left", name)
            }
            let right = path.kind
            guard compatible(left, right) else {
                throw mismatch("\(describe(name)) is \(describe(left)) and cannot be compared with \(path.text), which is \(describe(right))", name)
            }
            return rhs
        case .subqueryCount:
            guard compatible(left, .attribute(.integer64AttributeType)) else {
                throw mismatch("\(describe(name)) is \(describe(left)) and cannot be compared with a count", name)
            }
            return rhs
        }
    }

    /// `ANY`, `ALL` and `NONE` take a collection: a constant or `SUBQUERY(…).@count` is one
    /// value (Core Data raises an exception), a list is fine.
    private func checkModifierOperand(_ modifier: FetchPredicate.Modifier, _ lhs: ResolvedExpression,
                                      written: FetchExpression.Node) throws {
        switch (modifier, lhs) {
        case (.direct, _), (_, .keyPath), (_, .list): return
        case (_, .constant), (_, .subqueryCount):
            throw FetchRequestError(FetchRequestError.typeMismatch,
                                    "ANY, ALL and NONE need a collection on their left, a key path through a to-many relationship or a list; \(written.format) is a single value (in a predicate on \(entityName))",
                                    entityName: entity?.entityName, keyPath: written.format)
        }
    }

    /// Refuses strings holding U+0000 on either side of a comparison: SQLite would cut them
    /// there, and no stored string can hold one.
    private func refuseNUL(in expression: ResolvedExpression) throws {
        let values: [PropertyValue]
        switch expression {
        case .constant(let value): values = [value]
        case .list(let list): values = list
        case .keyPath, .subqueryCount: return
        }
        for case .string(let text) in values where text.containsNUL {
            throw FetchRequestError(FetchRequestError.typeMismatch,
                                    "the string \(PredicatePrinter.quoted(text)) contains a NUL character (U+0000), which no stored string can hold (in a predicate on \(entityName))",
                                    entityName: entity?.entityName)
        }
    }

    /// A constant converted to the type it is compared with, or an error naming both.
    private func fit(_ value: PropertyValue, to kind: ValueKind, name: String, op: FetchPredicate.Operator) throws -> PropertyValue {
        switch (kind, value) {
        case (_, .null), (.any, _), (.null, _):
            return value
        case (.object(let destination), .object(let id)):
            guard id.entity.isKindOf(entity: destination) || destination.isKindOf(entity: id.entity) else {
                throw mismatch("\(describe(name)) holds \(destination.entityName) objects and cannot equal a \(id.entity.entityName)", name)
            }
            guard op == .equalTo || op == .notEqualTo || op == .in else {
                throw mismatch("objects can only be compared with ==, != and IN", name)
            }
            return value
        case (.attribute(let type), _):
            if let converted = Self.convert(value, to: type) { return converted }
            throw mismatch("\(describe(name)) is \(type) and cannot be compared with \(describeConstant(value))", name)
        default:
            throw mismatch("\(describe(name)) is \(describe(kind)) and cannot be compared with \(describeConstant(value))", name)
        }
    }

    /// Numbers fit numeric attributes (as decimals for decimal attributes, so that the store and
    /// memory compare exactly the same value); other values must be of the attribute's type.
    static func convert(_ value: PropertyValue, to type: AttributeType) -> PropertyValue? {
        switch (type, value) {
        case (.decimalAttributeType, .integer(let integer)): return .decimal(Decimal(integer))
        // NaN has no decimal; it equals nothing whatever it is compared with.
        case (.decimalAttributeType, .double(let double)) where double.isNaN: return value
        case (.decimalAttributeType, .double(let double)):
            return Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal)
        case (.decimalAttributeType, .boolean(let bool)): return .decimal(bool ? 1 : 0)
        case (.decimalAttributeType, .decimal): return value
        case (_, .integer), (_, .double), (_, .boolean):
            return type.isNumeric ? value : nil
        case (_, .decimal(let decimal)):
            // A decimal against another number becomes an integer or a double: the store keeps
            // decimals as TEXT, which a count, a sum or an average (no column affinity) would
            // order after every number. Both sides then compare the same converted value.
            guard type.isNumeric else { return nil }
            let integer = NSDecimalNumber(decimal: decimal).int64Value
            if Decimal(integer) == decimal { return .integer(integer) }
            return .double(NSDecimalNumber(decimal: decimal).doubleValue)
        case (.stringAttributeType, .string), (.dateAttributeType, .date), (.binaryDataAttributeType, .data), (.transformableAttributeType, .data),
             (.UUIDAttributeType, .uuid), (.URIAttributeType, .uri):
            return value
        case (.URIAttributeType, .string(let text)):
            return URL(string: text).map(PropertyValue.uri)
        default:
            return nil
        }
    }

    private func compatible(_ lhs: ValueKind, _ rhs: ValueKind) -> Bool {
        switch (lhs, rhs) {
        case (.any, _), (_, .any), (.null, _), (_, .null): return true
        case (.object(let a), .object(let b)): return a.isKindOf(entity: b) || b.isKindOf(entity: a)
        case (.attribute(let a), .attribute(let b)):
            return a == b || (a.isNumeric && b.isNumeric) || (a == .URIAttributeType && b == .stringAttributeType)
                || (a == .stringAttributeType && b == .URIAttributeType)
        default: return false
        }
    }

    // MARK: Expressions

    private func resolve(_ node: FetchExpression.Node) throws -> ResolvedExpression {
        switch node {
        case .constant(let value):
            return .constant(value)
        case .list(let elements):
            return .list(try elements.map { element in
                guard case .constant(let value) = element else {
                    throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                            "lists may only hold constants, not \(element.format)", entityName: entity?.entityName)
                }
                return value
            })
        case .keyPath(let root, let components):
            return .keyPath(try resolveKeyPath(root: root, components: components))
        case .evaluatedObject:
            return .keyPath(try resolveKeyPath(root: .object, components: []))
        case .variable(let name):
            return .keyPath(try resolveKeyPath(root: .variable(name), components: []))
        case .subqueryCount(let collection, let variable, let predicate):
            guard case .keyPath(let path) = try resolve(collection) else {
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "SUBQUERY needs a to-many key path as its collection, not \(collection.format)",
                                        entityName: entity?.entityName)
            }
            let element: EntityDescription?
            if path.isReadByName {
                element = nil
            } else if path.isCollection, case .toMany(let relationship)? = path.steps.last, let destination = relationship.destinationEntity {
                element = destination
            } else {
                throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                        "SUBQUERY needs a to-many key path of \(entityName) as its collection, not \(collection.format)",
                                        entityName: entity?.entityName)
            }
            var inner = self
            inner.scope.updateValue(element, forKey: variable)
            return .subqueryCount(ResolvedSubquery(collection: path, variable: variable, predicate: try inner.resolve(predicate)))
        case .subquery:
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "a SUBQUERY must be counted: write SUBQUERY(...).@count", entityName: entity?.entityName)
        case .function:
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "\(node.format) is a function, which only an ExpressionDescription of a dictionary fetch takes; in a predicate write a collection operator such as players.@sum.goals",
                                    entityName: entity?.entityName)
        }
    }

    private func resolveKeyPath(root: FetchExpression.KeyPathRoot, components: [String]) throws -> ResolvedKeyPath {
        let start: EntityDescription?
        let resolvedRoot: ResolvedKeyPath.Root
        switch root {
        case .object:
            start = entity
            resolvedRoot = .object
        case .variable(let name):
            guard let bound = scope[name] else {
                throw FetchRequestError(FetchRequestError.unboundVariable,
                                        "$\(name) has no value; bind it with withSubstitutionVariables(_:)",
                                        entityName: entity?.entityName, keyPath: "$\(name)")
            }
            start = bound
            resolvedRoot = .variable(name)
        }
        let text = ((root == .object ? [] : ["$" + rootName(root)]) + components).joined(separator: ".")
        var path = ResolvedKeyPath(root: resolvedRoot, steps: [], entity: start, text: text.isEmpty ? "SELF" : text)
        guard let start else {
            path.steps = untypedSteps(components)
            return path
        }
        var current = start
        var inCollection = false
        var index = 0
        func unknown(_ name: String) -> FetchRequestError {
            FetchRequestError(FetchRequestError.unknownKeyPath,
                              "\(current.entityName) has no property '\(name)' (in key path '\(path.text)' of \(entityName))",
                              entityName: entity?.entityName, keyPath: path.text)
        }
        while index < components.count {
            let name = components[index]
            if case .attribute? = path.steps.last {
                throw FetchRequestError(FetchRequestError.unknownKeyPath,
                                        "'\(components[index - 1])' is an attribute; key path '\(path.text)' of \(entityName) cannot continue past it",
                                        entityName: entity?.entityName, keyPath: path.text)
            }
            switch name {
            case "@count":
                guard inCollection else { throw unknown(name) }
                path.steps.append(.count)
                inCollection = false
            case "@sum", "@avg", "@min", "@max":
                guard inCollection, index + 1 < components.count,
                      let attribute = current.property(named: components[index + 1]) as? AttributeDescription else {
                    throw unknown(index + 1 < components.count ? components[index + 1] : name)
                }
                let function = ResolvedKeyPath.AggregateFunction(rawValue: name) ?? .sum
                if function == .sum || function == .avg, !attribute.attributeType.isNumeric {
                    throw FetchRequestError(FetchRequestError.typeMismatch,
                                            "\(name) needs a numeric attribute; \(current.entityName).\(attribute.name) is \(attribute.attributeType)",
                                            entityName: entity?.entityName, keyPath: path.text)
                }
                path.steps.append(.aggregate(function, attribute))
                inCollection = false
                index += 1
            default:
                switch current.property(named: name) {
                case let attribute as AttributeDescription:
                    path.steps.append(.attribute(attribute))
                case let relationship as RelationshipDescription:
                    guard let destination = relationship.destinationEntity else { throw unknown(name) }
                    path.steps.append(relationship.isToMany ? .toMany(relationship) : .toOne(relationship))
                    if relationship.isToMany { inCollection = true }
                    current = destination
                default:
                    throw unknown(name)
                }
            }
            index += 1
        }
        return path
    }

    /// Steps read by name, for dictionaries: nothing is checked.
    private func untypedSteps(_ components: [String]) -> [ResolvedKeyPath.Step] {
        var steps: [ResolvedKeyPath.Step] = []
        var index = 0
        while index < components.count {
            let name = components[index]
            if name == "@count" {
                steps.append(.count)
            } else if let function = ResolvedKeyPath.AggregateFunction(rawValue: name) {
                // As in key-value coding, the rest of the path is read from each element and
                // aggregated (`@sum.items.price`); `@max` alone, or `@max.self`, aggregates the
                // elements themselves (an array of numbers).
                let rest = Array(components[(index + 1)...])
                steps.append(.keyAggregate(function, rest.isEmpty ? [ResolvedKeyPath.selfKey] : rest))
                break
            } else {
                steps.append(.key(name))
            }
            index += 1
        }
        return steps
    }

    private func rootName(_ root: FetchExpression.KeyPathRoot) -> String {
        if case .variable(let name) = root { return name }
        return ""
    }

    // MARK: Kinds and messages

    private func kind(of expression: ResolvedExpression) -> ValueKind {
        switch expression {
        case .constant(let value): return Self.kind(of: value)
        case .list: return .any
        case .keyPath(let path): return path.kind
        case .subqueryCount: return .attribute(.integer64AttributeType)
        }
    }

    static func kind(of value: PropertyValue) -> ValueKind {
        switch value {
        case .null: .null
        case .integer: .attribute(.integer64AttributeType)
        case .double: .attribute(.doubleAttributeType)
        case .decimal: .attribute(.decimalAttributeType)
        case .boolean: .attribute(.booleanAttributeType)
        case .string: .attribute(.stringAttributeType)
        case .date: .attribute(.dateAttributeType)
        case .data: .attribute(.binaryDataAttributeType)
        case .uuid: .attribute(.UUIDAttributeType)
        case .uri: .attribute(.URIAttributeType)
        case .object(let id): .object(id.entity)
        }
    }

    private func mismatch(_ message: String, _ keyPath: String) -> FetchRequestError {
        FetchRequestError(FetchRequestError.typeMismatch, "\(message) (in a predicate on \(entityName))",
                          entityName: entity?.entityName, keyPath: keyPath)
    }

    private func mismatch(_ message: String, _ node: FetchExpression.Node) -> FetchRequestError {
        mismatch(message, node.format)
    }

    private func describe(_ name: String) -> String {
        name == "SELF" ? "the \(entityName)" : "\(entityName).\(name)"
    }

    private func describe(_ kind: ValueKind) -> String {
        switch kind {
        case .attribute(let type): "\(type)"
        case .object(let entity): "a \(entity.entityName)"
        case .null: "nil"
        case .any: "a list"
        }
    }

    private func describeConstant(_ value: PropertyValue) -> String {
        switch value {
        case .string(let text): "the string \"\(text)\""
        case .object(let id): "a \(id.entity.entityName)"
        default: "the \(describe(Self.kind(of: value))) \(FetchExpression.Node.constant(value).format)"
        }
    }
}

extension FetchPredicate.Operator {
    /// The operator with its operands swapped (`a < b` is `b > a`); nil when there is none.
    var flipped: FetchPredicate.Operator? {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        case .equalTo: .equalTo
        case .notEqualTo: .notEqualTo
        default: nil
        }
    }

    /// Operators defined on strings only.
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .like, .matches: true
        default: false
        }
    }
}

extension AttributeType {
    /// Integers, floating point, decimals and booleans compare with each other by value.
    package var isNumeric: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType,
             .floatAttributeType, .decimalAttributeType, .booleanAttributeType: true
        default: false
        }
    }
}
