extension FetchPredicate {
    /// Parses a predicate in Core Data's format language, with its `%` arguments.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@ AND wins >= %d", "teamName", "bra", 3)
    /// ```
    ///
    /// The grammar is Core Data's ("Predicate Format String Syntax"): comparisons with `==`, `!=`,
    /// `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` and
    /// `MATCHES`, the `ANY`/`SOME`/`ALL`/`NONE` modifiers and `[c]`/`[d]`/`[cd]` options, joined
    /// with `AND`, `OR` and `NOT`; operands in parentheses (`done == (nil)`); key paths with
    /// `@count`, `@sum`, `@avg`, `@min` and `@max`; `SELF`, `$VARIABLE`s, `SUBQUERY(...)` and
    /// literals, including the `CAST(..., "NSDate")` and `FUNCTION(SELF, "valueForKeyPath:", ...)`
    /// forms ``predicateFormat`` prints. Arguments: `%@` (any supported value; arrays and sets
    /// become lists, dictionaries their values), `%K` (a key path: a string, or a Swift key path
    /// such as `\Post.author?.name`; `%K.%K` joins two into one path),
    /// `%d`/`%i`/`%u`/`%ld`/`%lld`/`%lu` (integers), `%f`/`%lf` (floating point) and `%s` (a
    /// string). Arguments left over are ignored, as in Core Data.
    ///
    /// ```swift
    /// let byAuthor = try FetchPredicate(format: "%K.%K == %@", "author", "name", "Ada")
    /// let typed = try FetchPredicate(format: "%K == %@", \Post.author?.name, "Ada")   // author.name == "Ada"
    /// ```
    ///
    /// - Throws: ``PredicateParseError``, whose offset counts Unicode scalars from the start of
    ///   `format`: ``PredicateParseError/syntaxError``,
    ///   ``PredicateParseError/missingArgument``, ``PredicateParseError/unsupportedArgument``,
    ///   ``PredicateParseError/unsupportedSyntax`` (arithmetic, `FUNCTION`, subscripts, nesting deeper
    ///   than ``maximumNestingDepth``, ...) or
    ///   ``PredicateParseError/invalidRegularExpression`` for a bad `MATCHES` pattern.
    public init(format: String, _ arguments: Any?...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a predicate in Core Data's format language, with its arguments in an array.
    ///
    /// ```swift
    /// let zones: [Any?] = [["UEFA", "CONMEBOL"]]
    /// let predicate = try FetchPredicate(format: "qualifyingZone IN %@", argumentArray: zones)
    /// ```
    ///
    /// See ``init(format:_:)`` for the grammar. A nil array is the same as an empty one.
    public init(format: String, argumentArray arguments: [Any?]?) throws {
        let node = try PredicateParser.parse(format: format, arguments: arguments ?? [])
        // The parser's own limit counts parentheses and NOTs; an AND inside an OR inside
        // parentheses nests two levels deeper per parenthesis.
        let depth = node.nestingDepth
        guard depth <= Self.maximumNestingDepth else {
            throw PredicateParseError(code: PredicateParseError.unsupportedSyntax,
                                      message: "nesting deeper than \(Self.maximumNestingDepth) levels is not supported", offset: 0, format: format)
        }
        self.init(node: node, depth: depth)
    }
}
