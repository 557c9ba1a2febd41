import Foundation

/// What every row among a controller's results satisfies by its own attributes: the conjuncts of
/// the predicate that compare the object's attributes with constants. A changed row whose new
/// values fail the guard cannot enter the results, so a merge hands it to the controller only
/// when the controller may show it already (see ``MergeRouter``).
///
/// Conjuncts that read through relationships, subqueries or variables are left out: checking them
/// could fire faults, and a weaker guard only lets more rows through.
struct RowGuard {
    /// The conjuncts kept, as one predicate; nil when none is, and every row may enter.
    let predicate: ResolvedPredicate?
    /// A kept conjunct `attribute == constant`, by which the router indexes controllers: a row
    /// whose attribute has another value fails the guard.
    let equality: Equality?

    struct Equality {
        let attribute: AttributeDescription
        let key: MatchKey
    }

    init(_ predicate: ResolvedPredicate?) {
        let kept = predicate.map(Self.conjuncts)?.filter(Self.readsOwnAttributesOnly) ?? []
        self.predicate = kept.isEmpty ? nil : kept.count == 1 ? kept[0] : .and(kept)
        equality = kept.lazy.compactMap(Self.equality).first
    }

    /// Whether the object's values pass the guard.
    func admits(_ object: ManagedObject) -> Bool {
        guard let predicate else { return true }
        // A predicate that cannot be evaluated (MATCHES over its step limit) is for the
        // controller to report: the row goes through.
        return (try? PredicateEvaluator().evaluate(predicate, on: object)) ?? true
    }

    private static func conjuncts(of predicate: ResolvedPredicate) -> [ResolvedPredicate] {
        if case .and(let parts) = predicate { return parts.flatMap(conjuncts) }
        return [predicate]
    }

    private static func readsOwnAttributesOnly(_ predicate: ResolvedPredicate) -> Bool {
        switch predicate {
        case .constant: true
        case .not(let inner): readsOwnAttributesOnly(inner)
        case .and(let parts), .or(let parts): parts.allSatisfy(readsOwnAttributesOnly)
        case .comparison(let comparison): isOwnAttributeOrConstant(comparison.lhs) && isOwnAttributeOrConstant(comparison.rhs)
        }
    }

    private static func isOwnAttributeOrConstant(_ expression: ResolvedExpression) -> Bool {
        switch expression {
        case .constant, .list: true
        case .keyPath(let path): ownAttribute(path) != nil
        case .subqueryCount: false
        }
    }

    private static func ownAttribute(_ path: ResolvedKeyPath) -> AttributeDescription? {
        guard path.root == .object, path.entity != nil, path.steps.count == 1, case .attribute(let attribute) = path.steps[0] else {
            return nil
        }
        return attribute
    }

    private static func equality(_ predicate: ResolvedPredicate) -> Equality? {
        guard case .comparison(let comparison) = predicate, comparison.op == .equalTo, comparison.modifier == .direct,
              comparison.options.isEmpty else { return nil }
        switch (comparison.lhs, comparison.rhs) {
        case (.keyPath(let path), .constant(let value)), (.constant(let value), .keyPath(let path)):
            guard let attribute = ownAttribute(path), let key = MatchKey(constant: value) else { return nil }
            return Equality(attribute: attribute, key: key)
        default:
            return nil
        }
    }
}

/// A key that values the predicate evaluator finds equal share: text for strings (and URLs,
/// which compare with strings as their text), a whole number for integers, Booleans and whole
/// doubles and decimals (numbers compare by value across types). Only string, integer and
/// Boolean constants get one; a value that equals none of those has no key.
enum MatchKey: Hashable {
    case text(String)
    case integer(Int64)

    /// The key of a constant an attribute is compared with; nil for kinds not indexed.
    init?(constant: PropertyValue) {
        switch constant {
        case .string(let text): self = .text(text)
        case .integer(let value): self = .integer(value)
        case .boolean(let value): self = .integer(value ? 1 : 0)
        default: return nil
        }
    }

    /// What a row's value may equal among keyed constants.
    enum Lookup {
        /// Only constants with this key.
        case key(MatchKey)
        /// None: the value is of a kind no keyed constant equals.
        case none
        /// Any: the value has no key that could be worked out exactly (a huge decimal).
        case any
    }

    /// Equal to a constant's key whenever the evaluator finds the two equal (strings equal by
    /// bytes are equal Swift strings).
    static func lookup(_ value: PropertyValue) -> Lookup {
        switch value {
        case .string(let text): return .key(.text(text))
        case .uri(let url): return .key(.text(url.absoluteString))
        case .integer(let value): return .key(.integer(value))
        case .boolean(let value): return .key(.integer(value ? 1 : 0))
        case .double(let value): return Int64(exactly: value).map { .key(.integer($0)) } ?? .none
        case .decimal(let value):
            guard let whole = Int64(exactly: NSDecimalNumber(decimal: value).doubleValue), Decimal(whole) == value else { return .any }
            return .key(.integer(whole))
        default:
            return .none
        }
    }
}
