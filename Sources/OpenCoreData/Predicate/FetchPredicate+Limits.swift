extension FetchPredicate {
    /// How deeply a predicate may nest: each `NOT`, `AND`, `OR`, comparison, list and `SUBQUERY`
    /// is one level.
    ///
    /// Printing, comparing, substituting, evaluating, compiling to SQL and releasing a predicate
    /// each walk it recursively, so a tree nested without bound would overflow the stack of the
    /// thread doing any of them. At this depth they all fit a secondary thread's 512 KB stack,
    /// even in a debug build.
    ///
    /// - A format string nested deeper is refused by ``init(format:_:)`` (which also stops at
    ///   408 levels of parentheses, `NOT`s and subqueries) with
    ///   ``PredicateParseError/unsupportedSyntax``. The printed form of every predicate within the
    ///   limit parses back.
    /// - A `#Predicate` nested deeper throws ``FetchRequestError/predicateTooDeep``.
    /// - A builder (``and(_:)``, ``or(_:)``, ``not(_:)``, `&&`, `||`, `!`) asked to nest deeper
    ///   does not build the tree: it returns a predicate that selects nothing, prints as
    ///   `FALSEPREDICATE`, and makes every use (a fetch, ``validate(for:)``,
    ///   ``evaluate(with:)``) report ``FetchRequestError/predicateTooDeep``.
    ///
    /// Wide predicates are fine: an `or` of a hundred thousand comparisons is two levels deep.
    public static let maximumNestingDepth = 100

    /// How many backtracking steps `MATCHES` may take on one value before it stops with
    /// ``FetchRequestError/regularExpressionTooComplex``: half a second at most on the
    /// project's test machine.
    ///
    /// Patterns without nested repetition stay far below it: `.*x.*` takes about a million
    /// steps on a value of a million characters. `(a+)+b` needs 2 million steps against twenty
    /// `a`s, and four times more per two more.
    public static let maximumRegularExpressionSteps = 10_000_000

    /// Whether a builder refused to nest this predicate any deeper.
    var isTooDeep: Bool { depth > Self.maximumNestingDepth }

    /// The error every use of a predicate that nests too deeply reports.
    func checkDepth() throws(FetchRequestError) {
        guard isTooDeep else { return }
        throw FetchRequestError(FetchRequestError.predicateTooDeep,
                                "the predicate nests deeper than \(Self.maximumNestingDepth) levels (NOT, AND, OR, comparisons and subqueries each count one); build it flatter, for example with one and(_:) or or(_:) of many subpredicates")
    }

    /// A predicate built from others: `node`, unless it nests deeper than
    /// ``maximumNestingDepth`` or an operand already did (then the refused predicate).
    static func built(_ node: Node, depth: Int, from operands: [FetchPredicate]) -> FetchPredicate {
        guard depth <= maximumNestingDepth, !operands.contains(where: \.isTooDeep) else {
            return FetchPredicate(node: .constant(false), depth: maximumNestingDepth + 1)
        }
        return FetchPredicate(node: node, depth: depth)
    }
}

extension FetchPredicate.Node {
    /// The levels of nesting in this tree, as ``FetchPredicate/maximumNestingDepth`` counts them.
    ///
    /// Computed with a stack of its own rather than by recursion, so that it is safe on any tree.
    package var nestingDepth: Int {
        enum Item {
            case predicate(FetchPredicate.Node)
            case expression(FetchExpression.Node)
        }
        var pending: [(item: Item, depth: Int)] = [(.predicate(self), 1)]
        var deepest = 0
        while let (item, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch item {
            case .predicate(.constant):
                break
            case .predicate(.not(let operand)):
                pending.append((.predicate(operand), depth + 1))
            case .predicate(.and(let operands)), .predicate(.or(let operands)):
                pending += operands.map { (.predicate($0), depth + 1) }
            case .predicate(.comparison(let comparison)):
                pending += [(.expression(comparison.lhs), depth), (.expression(comparison.rhs), depth)]
            case .expression(.list(let elements)), .expression(.function(_, let elements)):
                pending += elements.map { (.expression($0), depth + 1) }
            case .expression(.subquery(let collection, _, let predicate)),
                 .expression(.subqueryCount(let collection, _, let predicate)):
                pending += [(.expression(collection), depth + 1), (.predicate(predicate), depth + 1)]
            case .expression(.constant), .expression(.keyPath), .expression(.variable), .expression(.evaluatedObject):
                break
            }
        }
        return deepest
    }
}
