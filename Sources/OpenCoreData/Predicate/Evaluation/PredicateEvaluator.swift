import Foundation

/// Evaluates a resolved predicate in memory. The rules match the SQL the SQLite store runs:
/// `==` and `!=` treat nil as a value (`nil == nil`), ordering comparisons with nil are false,
/// strings compare by UTF-8 bytes after `[c]`/`[d]` folding, numbers compare by value across
/// types, NaN equals nothing and orders with nothing (so only `!=` is true of it), a to-many key
/// path without a modifier means `ANY`, and `ALL` over no values is true.
///
/// Evaluation throws only when `MATCHES` exceeds its step limit
/// (``FetchRequestError/regularExpressionTooComplex``).
struct PredicateEvaluator {
    /// What a key path or constant yields.
    indirect enum Value {
        case scalar(PropertyValue)
        case object((any PredicateSubject)?)
        case collection([Value])

        var elements: [Value] {
            if case .collection(let elements) = self { return elements }
            return [self]
        }
    }

    /// What `SELF` is and key paths start from: the evaluated object, or any value given to
    /// `evaluate(with:)` (a string, a number, an array, a dictionary).
    private var root: Value = .scalar(.null)
    /// Subquery variables bound to the element being tested: an object, or a value of an array.
    private var variables: [String: Value] = [:]

    func evaluate(_ predicate: ResolvedPredicate, on subject: any PredicateSubject) throws(FetchRequestError) -> Bool {
        try evaluate(predicate, onValue: .object(subject))
    }

    /// Evaluates on a value read as ``value(of:)`` reads it, for predicates resolved without an
    /// entity.
    func evaluate(_ predicate: ResolvedPredicate, onValue value: Value) throws(FetchRequestError) -> Bool {
        var evaluator = self
        evaluator.root = value
        return try evaluator.evaluate(predicate)
    }

    private func evaluate(_ predicate: ResolvedPredicate) throws(FetchRequestError) -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .not(let inner): return !(try evaluate(inner))
        case .and(let predicates):
            for predicate in predicates where !(try evaluate(predicate)) { return false }
            return true
        case .or(let predicates):
            for predicate in predicates where try evaluate(predicate) { return true }
            return false
        case .comparison(let comparison): return try evaluate(comparison)
        }
    }

    private func evaluate(_ comparison: ResolvedComparison) throws(FetchRequestError) -> Bool {
        let lhs = try value(of: comparison.lhs)
        let rhs = try value(of: comparison.rhs)
        let test = { (value: Value) throws(FetchRequestError) in try Self.compare(value, comparison.op, rhs, comparison.options) }
        let isCollection: Bool
        if case .collection = lhs, comparison.lhs.keyPath != nil { isCollection = true } else { isCollection = false }
        switch comparison.modifier {
        case .direct where isCollection && comparison.op == .contains:
            // An array read by name CONTAINS a value when one of its elements equals it (the
            // resolver has already made a to-many relationship's CONTAINS an ANY ==).
            return try Self.any(lhs.elements) { element throws(FetchRequestError) in
                try Self.compare(element, .equalTo, rhs, comparison.options)
            }
        case .direct where isCollection, .any:
            return try Self.any(lhs.elements, test)
        case .all:
            return !(try Self.any(lhs.elements) { element throws(FetchRequestError) in !(try test(element)) })
        case .none:
            return !(try Self.any(lhs.elements, test))
        case .direct:
            return try test(lhs)
        }
    }

    /// `contains(where:)` with a typed throw.
    private static func any(_ values: [Value], _ test: (Value) throws(FetchRequestError) -> Bool) throws(FetchRequestError) -> Bool {
        for value in values where try test(value) { return true }
        return false
    }

    // MARK: Values

    private func value(of expression: ResolvedExpression) throws(FetchRequestError) -> Value {
        switch expression {
        case .constant(let value):
            return .scalar(value)
        case .list(let values):
            return .collection(values.map { .scalar($0) })
        case .keyPath(let path):
            return value(of: path)
        case .subqueryCount(let subquery):
            var inner = self
            var count: Int64 = 0
            for element in value(of: subquery.collection).elements {
                if case .object(nil) = element { continue }
                inner.variables[subquery.variable] = element
                if try inner.evaluate(subquery.predicate) { count += 1 }
            }
            return .scalar(.integer(count))
        }
    }

    private func value(of path: ResolvedKeyPath) -> Value {
        var current: Value
        switch path.root {
        case .object: current = root
        case .variable(let name): current = variables[name] ?? .scalar(.null)
        }
        for step in path.steps {
            current = apply(step, to: current)
        }
        return current
    }

    private func apply(_ step: ResolvedKeyPath.Step, to value: Value) -> Value {
        switch (step, value) {
        case (.key(ResolvedKeyPath.selfKey), _):
            // `self`, as key-value coding reads it: the value itself (`@max.self`, `SELF.self`).
            return value
        case (.key("length"), .scalar(.string(let text))):
            // Key-value coding's `length` of a string (NSString's, in UTF-16 units), which
            // Core Data's length validation predicates read; only values evaluated without an
            // entity get here, so fetches are unchanged.
            return .scalar(.integer(Int64(text.utf16.count)))
        case (.key("length"), .scalar(.data(let bytes))):
            return .scalar(.integer(Int64(bytes.count)))
        case (.count, .collection(let elements)):
            return .scalar(.integer(Int64(elements.count)))
        case (.aggregate(let function, let attribute), .collection(let elements)):
            let values = elements.compactMap { element -> PropertyValue? in
                guard case .object(let object?) = element else { return nil }
                let value = object.attributeValue(attribute)
                return value.isNull ? nil : value
            }
            return .scalar(Self.aggregate(function, values))
        case (.keyAggregate(let function, let keys), .collection(let elements)):
            let values = elements.compactMap { element -> PropertyValue? in
                guard case .scalar(let value) = keys.reduce(element, { apply(.key($1), to: $0) }), !value.isNull else { return nil }
                return value
            }
            return .scalar(Self.aggregate(function, values))
        case (_, .collection(let elements)):
            return .collection(elements.flatMap { apply(step, to: $0).elements })
        case (.key(let key), .object(let object)):
            return Self.value(of: object?.rawValue(forKey: key))
        case (.attribute(let attribute), .object(let object)):
            return .scalar(object?.attributeValue(attribute) ?? .null)
        case (.toOne(let relationship), .object(let object)):
            return .object(object?.toOneSubject(relationship))
        case (.toMany(let relationship), .object(let object)):
            return .collection(object?.toManySubjects(relationship).map { .object($0) } ?? [])
        default:
            return .scalar(.null)
        }
    }

    /// A value read by name: objects and dictionaries continue key paths, collections become
    /// collections, anything else a constant.
    static func value(of raw: Any?) -> Value {
        guard let raw = flattenOptional(raw) else { return .scalar(.null) }
        if let subject = DictionarySubject.subject(raw) { return .object(subject) }
        if !(raw is String), !(raw is Data), let sequence = raw as? any Sequence {
            var elements: [Value] = []
            for element in sequence { elements.append(value(of: element)) }
            return .collection(elements)
        }
        if case .constant(let constant)? = FetchExpression.Node.constant(from: raw) { return .scalar(constant) }
        return .scalar(.null)
    }

    /// `@sum`, `@avg`, `@min`, `@max` over non-nil values, as SQL computes them: the sum of no
    /// values is 0, the others are nil.
    static func aggregate(_ function: ResolvedKeyPath.AggregateFunction, _ values: [PropertyValue]) -> PropertyValue {
        switch function {
        case .min: return values.min { PropertyValue.compare($0, $1) < 0 } ?? .null
        case .max: return values.max { PropertyValue.compare($0, $1) < 0 } ?? .null
        case .sum, .avg:
            var integerSum: Int64 = 0
            var doubleSum = 0.0
            var decimalSum = Decimal(0)
            var kind = 0 // 0 integers, 1 doubles, 2 decimals
            for value in values {
                switch value {
                case .integer(let integer):
                    // Past Int64, the sum goes on in floating point (SQLite's SUM would throw).
                    let (sum, overflow) = integerSum.addingReportingOverflow(integer)
                    integerSum = sum
                    if overflow { kind = max(kind, 1) }
                    doubleSum += Double(integer); decimalSum += Decimal(integer)
                case .boolean(let bool): integerSum &+= bool ? 1 : 0; doubleSum += bool ? 1 : 0; decimalSum += bool ? 1 : 0
                case .double(let double): kind = max(kind, 1); doubleSum += double
                case .decimal(let decimal): kind = 2; decimalSum += decimal
                default: break
                }
            }
            // SQLite has no NaN (it stores and returns NULL): +inf + -inf is nil on both sides.
            if function == .avg {
                guard !values.isEmpty else { return .null }
                if kind == 2 { return .decimal(decimalSum / Decimal(values.count)) }
                let average = doubleSum / Double(values.count)
                return average.isNaN ? .null : .double(average)
            }
            switch kind {
            case 0: return .integer(integerSum)
            case 1: return doubleSum.isNaN ? .null : .double(doubleSum)
            default: return .decimal(decimalSum)
            }
        }
    }

    // MARK: Comparing

    static func compare(_ lhs: Value, _ op: FetchPredicate.Operator, _ rhs: Value,
                        _ options: FetchPredicate.Options) throws(FetchRequestError) -> Bool {
        switch op {
        case .equalTo: return equal(lhs, rhs, options)
        case .notEqualTo: return !equal(lhs, rhs, options)
        case .lessThan: return order(lhs, rhs, options).map { $0 < 0 } ?? false
        case .lessThanOrEqualTo: return order(lhs, rhs, options).map { $0 <= 0 } ?? false
        case .greaterThan: return order(lhs, rhs, options).map { $0 > 0 } ?? false
        case .greaterThanOrEqualTo: return order(lhs, rhs, options).map { $0 >= 0 } ?? false
        case .between:
            let bounds = rhs.elements
            guard bounds.count == 2, let low = order(lhs, bounds[0], options), let high = order(lhs, bounds[1], options) else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch (lhs, rhs) {
            case (_, .collection(let elements)):
                return elements.contains { equal(lhs, $0, options) }
            case (.scalar(let part), .scalar(let whole)):
                // `IN` with a string on the right is a substring test (Core Data's IN serves
                // strings as well as collections): `"ell" IN "hello"`.
                guard let part = part.text, let whole = whole.text else { return false }
                return try StringMatching.match(.contains, value: whole, pattern: part, options: options)
            default:
                return false
            }
        case .contains, .beginsWith, .endsWith, .like, .matches:
            guard case .scalar(let left) = lhs, case .scalar(let right) = rhs, let value = left.text, let pattern = right.text,
                  let operation = StringMatching.Operation(op) else { return false }
            return try StringMatching.match(operation, value: value, pattern: pattern, options: options)
        }
    }

    /// Null-safe equality: nil equals nil, objects compare by ID, NaN equals nothing.
    private static func equal(_ lhs: Value, _ rhs: Value, _ options: FetchPredicate.Options) -> Bool {
        switch (identity(lhs), identity(rhs)) {
        case (.some(let left), .some(let right)): return left == right
        case (.some(let left), .none): return left == nil && isNull(rhs)
        case (.none, .some(let right)): return right == nil && isNull(lhs)
        case (.none, .none): break
        }
        guard case .scalar(let left) = lhs, case .scalar(let right) = rhs else { return false }
        if left.isNull || right.isNull { return left.isNull && right.isNull }
        if left.isNaN || right.isNaN { return false }
        return compareScalars(left, right, options) == 0
    }

    /// Ordering; nil when either side is nil or NaN (the comparison is then false).
    private static func order(_ lhs: Value, _ rhs: Value, _ options: FetchPredicate.Options) -> Int? {
        guard case .scalar(let left) = lhs, case .scalar(let right) = rhs, !left.isNull, !right.isNull,
              !left.isNaN, !right.isNaN else { return nil }
        return compareScalars(left, right, options)
    }

    private static func compareScalars(_ left: PropertyValue, _ right: PropertyValue, _ options: FetchPredicate.Options) -> Int {
        if !options.isEmpty, let a = left.text, let b = right.text {
            return StringMatching.compareBytes(StringMatching.fold(a, options), StringMatching.fold(b, options))
        }
        return PropertyValue.compare(left, right)
    }

    /// An object's ID (`.some(nil)` for a nil object), or nil for a value that is not an object.
    private static func identity(_ value: Value) -> ManagedObjectID??  {
        switch value {
        case .object(let object): return .some(object?.subjectID)
        case .scalar(.object(let id)): return .some(id)
        default: return nil
        }
    }

    private static func isNull(_ value: Value) -> Bool {
        if case .scalar(.null) = value { return true }
        return false
    }
}
