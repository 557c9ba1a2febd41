// A recursive-descent parser for Core Data's predicate format language:
//
//   predicate  := or
//   or         := and (("OR" | "||") and)*
//   and        := not (("AND" | "&&") not)*
//   not        := ("NOT" | "!") not | primary
//   primary    := "TRUEPREDICATE" | "FALSEPREDICATE" | "(" predicate ")" | comparison
//   comparison := ["ANY" | "SOME" | "ALL" | "NONE"] expression operator ["[" options "]"] expression
//
// Expressions are parsed in PredicateParser+Expressions.swift. Expressions may be parenthesised
// too (`(nil) == done`), so a parenthesis where a predicate starts is ambiguous; what follows the
// matching parenthesis decides (an operator means an operand), found for all parentheses in one
// pass over the tokens. Otherwise the parser reads one token of lookahead and never backtracks,
// and each `%` specifier carries the index of its argument, so arguments are consumed strictly
// in the order they are written.

/// Parses one format string into a predicate tree.
struct PredicateParser {
    var lexer: PredicateLexer
    /// The current token: the next one not yet consumed.
    var token: PredicateToken
    let arguments: [Any?]
    let format: String
    /// The nesting budget in use: one per `NOT`, parenthesis and operand (so lists and casts
    /// count once per level), two more per `SUBQUERY`.
    private var depth = 0
    /// The offsets of the parentheses that open operands rather than groups of predicates,
    /// found when a parenthesis first starts a predicate.
    private var operandParentheses: Set<Int>?

    /// Deeper input is refused rather than risk overflowing the stack. Enough for the printed form
    /// of any predicate within ``FetchPredicate/maximumNestingDepth`` (a nested `SUBQUERY` costs the
    /// parser four levels for the tree's one); a debug build spends up to 4 KB of stack per level,
    /// so deep formats parse on a thread of their own (``parse(format:arguments:)``).
    static let maximumDepth = 4 * FetchPredicate.maximumNestingDepth + 8

    init(format: String, arguments: [Any?]) throws(PredicateParseError) {
        self.format = format
        self.arguments = arguments
        lexer = PredicateLexer(format: format)
        token = try lexer.next()
    }

    /// Parses the whole format string.
    mutating func parse() throws(PredicateParseError) -> FetchPredicate.Node {
        let node = try parseOr()
        guard token.kind == .end else { throw unexpected() }
        return node
    }

    // MARK: - Predicates

    mutating func parseOr() throws(PredicateParseError) -> FetchPredicate.Node {
        var operands = [try parseAnd()]
        while token.kind == .keyword(.or) || token.kind == .punctuation(.bars) {
            try advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(PredicateParseError) -> FetchPredicate.Node {
        var operands = [try parseNot()]
        while token.kind == .keyword(.and) || token.kind == .punctuation(.ampersands) {
            try advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws(PredicateParseError) -> FetchPredicate.Node {
        try enterLevel()
        defer { leaveLevel() }
        if token.kind == .keyword(.not) || token.kind == .punctuation(.bang) {
            try advance()
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(PredicateParseError) -> FetchPredicate.Node {
        switch token.kind {
        case .keyword(.truePredicate):
            try advance()
            return .constant(true)
        case .keyword(.falsePredicate):
            try advance()
            return .constant(false)
        case .punctuation(.leftParen) where !parenthesisOpensOperand():
            // A parenthesised group stays one node, so `(a AND b) AND c` keeps its nesting and
            // the printer can reproduce any tree.
            try advance()
            let inner = try parseOr()
            try expect(.rightParen)
            return inner
        default:
            return .comparison(try parseComparison())
        }
    }

    // MARK: - Comparisons

    private mutating func parseComparison() throws(PredicateParseError) -> FetchPredicate.Comparison {
        var modifier = FetchPredicate.Modifier.direct
        switch token.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .none
        default: break
        }
        if modifier != .direct { try advance() }

        let lhs = try parseExpression()
        let operatorToken = token
        guard let op = Self.comparisonOperator(token.kind) else {
            throw syntaxError("expected an operator", at: token.offset)
        }
        try advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        try validate(lhs: lhs, op: op, operatorToken: operatorToken, rhs: rhs)
        return FetchPredicate.Comparison(lhs: lhs.node, op: op, rhs: rhs.node, modifier: modifier, options: options)
    }

    /// Whether the parenthesis that is the current token opens an operand (`(nil) == done`,
    /// `(a).b > 1`) rather than a group of predicates: it does when an operator, a `.`, a
    /// subscript or arithmetic follows its matching parenthesis. One pass over the format's
    /// tokens answers for every parenthesis, the first time one is asked about, so nested
    /// parentheses cost no rescanning.
    private mutating func parenthesisOpensOperand() -> Bool {
        if operandParentheses == nil { operandParentheses = Self.operandParentheses(in: format) }
        return operandParentheses?.contains(token.offset) ?? false
    }

    /// The offsets of the parentheses that open operands. Tokens after a lexical error are not
    /// read: the parse reports that error before it reaches them.
    private static func operandParentheses(in format: String) -> Set<Int> {
        var lexer = PredicateLexer(format: format)
        var open: [Int] = []
        var operands: Set<Int> = []
        var justClosed: Int?
        while let token = try? lexer.next(), token.kind != .end {
            if let opening = justClosed {
                switch token.kind {
                case .punctuation(.dot), .punctuation(.leftBracket), .punctuation(.plus), .punctuation(.minus),
                     .punctuation(.star), .punctuation(.slash):
                    operands.insert(opening)
                default:
                    if comparisonOperator(token.kind) != nil { operands.insert(opening) }
                }
                justClosed = nil
            }
            switch token.kind {
            case .punctuation(.leftParen): open.append(token.offset)
            case .punctuation(.rightParen): justClosed = open.popLast()
            default: break
            }
        }
        return operands
    }

    private static func comparisonOperator(_ kind: PredicateToken.Kind) -> FetchPredicate.Operator? {
        switch kind {
        case .punctuation(.equal), .punctuation(.assignEqual): .equalTo
        case .punctuation(.notEqual), .punctuation(.lessGreater): .notEqualTo
        case .punctuation(.less): .lessThan
        case .punctuation(.lessEqual), .punctuation(.equalLess): .lessThanOrEqualTo
        case .punctuation(.greater): .greaterThan
        case .punctuation(.greaterEqual), .punctuation(.equalGreater): .greaterThanOrEqualTo
        case .keyword(.in): .in
        case .keyword(.contains): .contains
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.between): .between
        default: nil
        }
    }

    /// `[c]`, `[d]`, `[cd]`, `[dc]` after an operator.
    private mutating func parseOptions() throws(PredicateParseError) -> FetchPredicate.Options {
        guard token.kind == .punctuation(.leftBracket) else { return [] }
        try advance()
        let letters: String
        switch token.kind {
        case .identifier(_, escaped: false), .keyword: letters = token.text
        default: throw syntaxError("expected comparison options", at: token.offset)
        }
        var options: FetchPredicate.Options = []
        for (index, letter) in letters.unicodeScalars.enumerated() {
            let offset = token.offset + index
            let option: FetchPredicate.Options
            switch letter {
            case "c", "C": option = .caseInsensitive
            case "d", "D": option = .diacriticInsensitive
            case "n", "N", "l", "L":
                throw unsupported("comparison option '\(letter)' is not supported", at: offset)
            default:
                throw syntaxError("unknown comparison option '\(letter)'", at: offset)
            }
            guard !options.contains(option) else { throw syntaxError("duplicate comparison option '\(letter)'", at: offset) }
            options.insert(option)
        }
        try advance()
        try expect(.rightBracket)
        return options
    }

    /// Rules the grammar alone does not express.
    private func validate(lhs: ParsedExpression, op: FetchPredicate.Operator, operatorToken: PredicateToken,
                          rhs: ParsedExpression) throws(PredicateParseError) {
        switch op {
        case .between:
            switch rhs.node {
            case .list(let bounds) where bounds.count == 2: break
            case .variable: break  // bound later by withSubstitutionVariables(_:)
            default:
                if rhs.isArgument {
                    throw PredicateParseError(code: PredicateParseError.unsupportedArgument,
                                              message: "BETWEEN expects an array of two values", offset: rhs.offset, format: format)
                }
                throw syntaxError("BETWEEN expects a list of two values", at: rhs.offset)
            }
        case .matches:
            if case .constant(.string(let pattern)) = rhs.node, let problem = Self.regexProblem(pattern) {
                throw PredicateParseError(code: PredicateParseError.invalidRegularExpression,
                                          message: "invalid regular expression \(PredicatePrinter.quoted(pattern)): \(problem)", offset: rhs.offset, format: format)
            }
        case .in:
            // `players.@count IN "…"` would ask for a substring test on a number.
            if case .keyPath(_, let components) = lhs.node, let collectionOperator = components.first(where: { $0.hasPrefix("@") }),
               case .constant(.string) = rhs.node {
                throw unsupported("collection operator '\(collectionOperator)' on the left of IN with a string", at: operatorToken.offset)
            }
        default:
            break
        }
    }

    /// Why `pattern` is not a valid regular expression, or nil if it is.
    static func regexProblem(_ pattern: String) -> String? {
        RegularExpressionMatching.problem(in: pattern)
    }

    // MARK: - Tokens and errors

    /// Counts one level of nesting; every recursion of the parser passes through here.
    mutating func enterLevel() throws(PredicateParseError) {
        guard depth < Self.maximumDepth else {
            throw unsupported("nesting deeper than \(Self.maximumDepth) levels is not supported", at: token.offset)
        }
        depth += 1
    }

    mutating func leaveLevel() {
        depth -= 1
    }

    mutating func advance() throws(PredicateParseError) {
        token = try lexer.next()
    }

    mutating func expect(_ punctuation: PredicatePunctuation) throws(PredicateParseError) {
        guard token.kind == .punctuation(punctuation) else {
            throw syntaxError("expected '\(punctuation.rawValue)'", at: token.offset)
        }
        try advance()
    }

    /// The error for a token that cannot appear where it is.
    func unexpected() -> PredicateParseError {
        syntaxError(token.kind == .end ? "unexpected end of format" : "unexpected '\(token.text)'", at: token.offset)
    }

    func syntaxError(_ message: String, at offset: Int) -> PredicateParseError {
        PredicateParseError(code: PredicateParseError.syntaxError, message: message, offset: offset, format: format)
    }

    func unsupported(_ message: String, at offset: Int) -> PredicateParseError {
        PredicateParseError(code: PredicateParseError.unsupportedSyntax, message: message, offset: offset, format: format)
    }
}
