/// A condition objects must meet to be fetched: Core Data's `NSPredicate`, renamed because
/// Foundation already has a `Predicate` type.
///
/// Write it in Core Data's format language, or build it in code:
///
/// ```swift
/// let leaders = try FetchPredicate(format: "qualifyingZone == %@ AND wins >= %d", "UEFA", 3)
/// let named = try FetchPredicate(format: "ANY players.name BEGINSWITH[cd] %@", "ro")
/// let built = FetchPredicate.and([
///     .comparison(.keyPath("wins"), .greaterThanOrEqualTo, .constant(3)),
///     .comparison(.keyPath("teamName"), .beginsWith, .constant("B"), options: .caseInsensitive),
/// ])
/// request.predicate = leaders
/// ```
///
/// Every predicate evaluates in memory (``evaluate(with:)``, and for a context's unsaved changes)
/// and compiles to SQL, with the same answer. ``predicateFormat`` prints it back in the format
/// language, so that parsing the output gives an equal predicate.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The predicate tree.
    package indirect enum Node: Sendable, Hashable {
        /// `TRUEPREDICATE` or `FALSEPREDICATE`.
        case constant(Bool)
        case not(Node)
        case and([Node])
        case or([Node])
        case comparison(Comparison)
    }

    /// A comparison: `lhs op rhs`, optionally with `ANY`/`ALL`/`NONE` and `[cd]` options.
    package struct Comparison: Sendable, Hashable {
        package var lhs: FetchExpression.Node
        package var op: Operator
        package var rhs: FetchExpression.Node
        package var modifier: Modifier
        package var options: Options

        package init(lhs: FetchExpression.Node, op: Operator, rhs: FetchExpression.Node,
                     modifier: Modifier = .direct, options: Options = []) {
            self.lhs = lhs
            self.op = op
            self.rhs = rhs
            self.modifier = modifier
            self.options = options
        }
    }

    /// Comparison operators, with Core Data's `NSComparisonPredicate.Operator` names.
    public enum Operator: Sendable, Hashable, CaseIterable {
        /// `<`
        case lessThan
        /// `<=`, `=<`
        case lessThanOrEqualTo
        /// `>`
        case greaterThan
        /// `>=`, `=>`
        case greaterThanOrEqualTo
        /// `==`, `=`
        case equalTo
        /// `!=`, `<>`
        case notEqualTo
        /// `MATCHES`: the whole string matches a regular expression.
        case matches
        /// `LIKE`: `*` matches any run of characters, `?` one character.
        case like
        /// `BEGINSWITH`
        case beginsWith
        /// `ENDSWITH`
        case endsWith
        /// `IN`: the left side is one of the right side's values.
        case `in`
        /// `CONTAINS`: a string contains a string, or a collection contains a value.
        case contains
        /// `BETWEEN {low, high}`: inclusive at both ends.
        case between
    }

    /// How a comparison applies to a to-many key path, with Core Data's names (`NONE` is ours:
    /// Core Data rewrites it to `NOT ANY`).
    public enum Modifier: Sendable, Hashable {
        /// The plain comparison; on a to-many key path it means `ANY`.
        case direct
        /// `ALL`: every value of the collection meets the comparison (true for an empty one).
        case all
        /// `ANY` (or `SOME`): at least one value does.
        case any
        /// `NONE`: no value does.
        case none
    }

    /// String comparison options: the `[c]`, `[d]` and `[cd]` suffixes.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `[c]`: case is ignored.
        public static let caseInsensitive = Options(rawValue: 1 << 0)
        /// `[d]`: diacritics are ignored (`é` equals `e`).
        public static let diacriticInsensitive = Options(rawValue: 1 << 1)
    }

    package let node: Node
    /// The levels of nesting in `node`; more than ``maximumNestingDepth`` for a predicate a
    /// builder refused to nest further (see ``FetchPredicate/built(_:depth:from:)``).
    package let depth: Int

    package init(node: Node) {
        self.init(node: node, depth: node.nestingDepth)
    }

    init(node: Node, depth: Int) {
        self.node = node
        self.depth = depth
    }

    /// A predicate that is always `value`: `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        self.init(node: .constant(value), depth: 1)
    }

    public var description: String { predicateFormat }
}

// MARK: - Building predicates in code

extension FetchPredicate {
    /// A predicate true when every subpredicate is (Core Data's `NSCompoundPredicate(andPredicateWithSubpredicates:)`).
    ///
    /// Nested conjunctions are flattened (`a && b && c` is one `AND` of three), one subpredicate
    /// is itself, and none is `TRUEPREDICATE`, so chains stay shallow and print back exactly.
    /// A predicate nested deeper than ``maximumNestingDepth`` is not built: see there.
    public static func and(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        compound(subpredicates, empty: true) { if case .and(let parts) = $0 { parts } else { nil } } make: { .and($0) }
    }

    /// A predicate true when any subpredicate is. Nested disjunctions are flattened, one
    /// subpredicate is itself, and none is `FALSEPREDICATE`.
    /// A predicate nested deeper than ``maximumNestingDepth`` is not built: see there.
    public static func or(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        compound(subpredicates, empty: false) { if case .or(let parts) = $0 { parts } else { nil } } make: { .or($0) }
    }

    /// An `and` or `or` of subpredicates, flattening those of the same kind.
    private static func compound(_ subpredicates: [FetchPredicate], empty: Bool, parts: (Node) -> [Node]?,
                                 make: ([Node]) -> Node) -> FetchPredicate {
        var nodes: [Node] = []
        var operandsDepth = 0
        for predicate in subpredicates {
            if let flattened = parts(predicate.node) {
                nodes += flattened
                operandsDepth = max(operandsDepth, predicate.depth - 1)
            } else {
                nodes.append(predicate.node)
                operandsDepth = max(operandsDepth, predicate.depth)
            }
        }
        switch nodes.count {
        case 0: return FetchPredicate(value: empty)
        case 1: return built(nodes[0], depth: operandsDepth, from: subpredicates)
        default: return built(make(nodes), depth: operandsDepth + 1, from: subpredicates)
        }
    }

    /// A predicate true when `predicate` is false.
    /// A predicate nested deeper than ``maximumNestingDepth`` is not built: see there.
    public static func not(_ predicate: FetchPredicate) -> FetchPredicate {
        built(.not(predicate.node), depth: predicate.depth + 1, from: [predicate])
    }

    /// A comparison of two expressions (Core Data's `NSComparisonPredicate`).
    ///
    /// ```swift
    /// let recent = FetchPredicate.comparison(.keyPath("createdAt"), .greaterThan, try .constant(lastWeek))
    /// ```
    public static func comparison(
        _ lhs: FetchExpression, _ op: Operator, _ rhs: FetchExpression,
        modifier: Modifier = .direct, options: Options = []
    ) -> FetchPredicate {
        let node = Node.comparison(Comparison(lhs: lhs.node, op: op, rhs: rhs.node, modifier: modifier, options: options))
        return built(node, depth: node.nestingDepth, from: [])
    }

    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .and([lhs, rhs]) }
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .or([lhs, rhs]) }
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate { .not(predicate) }
}
