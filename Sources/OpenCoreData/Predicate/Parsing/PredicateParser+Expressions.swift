import Foundation

// Expressions: the two sides of a comparison.
//
//   expression := "(" expression ")" ["." path] | constant | "-" number | list | keyPath
//               | "SELF" ["." path] | "$" NAME ["." path] | "%K" ["." path] | "%@" | "%d" | "%f" | "%s"
//               | subquery | cast | function
//   keyPath    := (key | operator) ("." (key | "%K" | operator))*
//   operator   := "@count" | "@sum" | "@avg" | "@min" | "@max"
//   function   := "FUNCTION" "(" expression "," ("'valueForKeyPath:'" | "'valueForKey:'") "," STRING ")"
//   list       := "{" [expression ("," expression)*] "}"
//   subquery   := "SUBQUERY" "(" expression "," "$" NAME "," predicate ")" [".@count"]
//   cast       := "CAST" "(" expression "," STRING ")"

/// An expression with where it was written, for errors found after it is parsed.
struct ParsedExpression {
    var node: FetchExpression.Node
    var offset: Int
    /// Whether it came from a `%@`-style argument, whose problems are the caller's values.
    var isArgument = false
}

extension PredicateParser {
    /// The collection operators a key path may contain.
    static let collectionOperators: Set<String> = ["@count", "@sum", "@avg", "@min", "@max"]

    mutating func parseExpression() throws(PredicateParseError) -> ParsedExpression {
        let expression = try parseOperand()
        if let error = trailingOperatorError() { throw error }
        return expression
    }

    /// The error for arithmetic or a subscript after an operand (a separate function keeps
    /// string building out of the recursive path's stack frames).
    private func trailingOperatorError() -> PredicateParseError? {
        switch token.kind {
        case .punctuation(.plus), .punctuation(.minus), .punctuation(.star), .punctuation(.slash):
            unsupported("arithmetic ('\(token.text)') is not supported", at: token.offset)
        case .punctuation(.leftBracket):
            unsupported("subscripts are not supported", at: token.offset)
        default:
            nil
        }
    }

    /// Operands that nest (lists, subqueries, casts) are dispatched here, with a small stack
    /// frame, since nesting depth multiplies it; the others are read by `parseLeafOperand`.
    private mutating func parseOperand() throws(PredicateParseError) -> ParsedExpression {
        try enterLevel()
        defer { leaveLevel() }
        let offset = token.offset
        switch token.kind {
        case .punctuation(.leftParen): return try parseParenthesisedOperand()
        case .punctuation(.leftBrace): return ParsedExpression(node: try parseList(), offset: offset)
        case .keyword(.subquery): return ParsedExpression(node: try parseSubquery(), offset: offset)
        case .keyword(.cast): return ParsedExpression(node: try parseCast(), offset: offset)
        case .keyword(.function): return ParsedExpression(node: try parseFunction(), offset: offset)
        default: return try parseLeafOperand()
        }
    }

    /// `(expression)`, which the grammar allows wherever an expression goes: `(nil) == done`.
    /// A key path may continue after it: `(SELF).name`.
    private mutating func parseParenthesisedOperand() throws(PredicateParseError) -> ParsedExpression {
        try advance()
        var inner = try parseExpression()
        try expect(.rightParen)
        // Otherwise the `.` is an error where an operator is expected.
        if token.kind == .punctuation(.dot), Self.keyPath(extending: inner.node, with: []) != nil {
            inner.node = Self.keyPath(extending: inner.node, with: try parsePathSuffix()) ?? inner.node
        }
        return inner
    }

    /// The key path that continues `node` (`SELF`, a variable or a key path) with `keys`, or nil
    /// for an expression no key path continues.
    static func keyPath(extending node: FetchExpression.Node, with keys: [String]) -> FetchExpression.Node? {
        switch node {
        case .evaluatedObject: .keyPath(root: .object, components: keys)
        case .variable(let name): .keyPath(root: .variable(name), components: keys)
        case .keyPath(let root, let components): .keyPath(root: root, components: components + keys)
        default: nil
        }
    }

    private mutating func parseLeafOperand() throws(PredicateParseError) -> ParsedExpression {
        let start = token
        switch start.kind {
        case .string(let value):
            try advance()
            return ParsedExpression(node: .constant(.string(value)), offset: start.offset)
        case .number(let spelling, let isFloat):
            try advance()
            return ParsedExpression(node: .constant(Self.number(spelling, isFloat: isFloat, negative: false)), offset: start.offset)
        case .punctuation(.minus):
            try advance()
            guard case .number(let spelling, let isFloat) = token.kind else {
                throw unsupported("arithmetic ('-') is not supported", at: start.offset)
            }
            try advance()
            return ParsedExpression(node: .constant(Self.number(spelling, isFloat: isFloat, negative: true)), offset: start.offset)
        case .keyword(.true), .keyword(.yes), .keyword(.false), .keyword(.no):
            try advance()
            let value = start.kind == .keyword(.true) || start.kind == .keyword(.yes)
            return ParsedExpression(node: .constant(.boolean(value)), offset: start.offset)
        case .keyword(.nil), .keyword(.null):
            try advance()
            return ParsedExpression(node: .constant(.null), offset: start.offset)
        case .keyword(.self):
            try advance()
            let path = try parsePathSuffix()
            // `SELF.name` is the key path `name`: one spelling per tree, so printing is unambiguous.
            return ParsedExpression(node: path.isEmpty ? .evaluatedObject : .keyPath(root: .object, components: path), offset: start.offset)
        case .variable(let name):
            try advance()
            let path = try parsePathSuffix()
            return ParsedExpression(node: path.isEmpty ? .variable(name) : .keyPath(root: .variable(name), components: path), offset: start.offset)
        case .identifier(let key, _):
            try advance()
            if token.kind == .punctuation(.leftParen) {
                throw unsupported("function calls ('\(key)(...)') are not supported", at: start.offset)
            }
            return ParsedExpression(node: .keyPath(root: .object, components: [key] + (try parsePathSuffix())), offset: start.offset)
        case .collectionOperator(let name):
            // `@sum.items.price`: a key path may start with a collection operator, which then
            // applies to the evaluated collection.
            guard Self.collectionOperators.contains(name) else {
                throw unsupported("collection operator '\(name)' is not supported", at: start.offset)
            }
            try advance()
            return ParsedExpression(node: .keyPath(root: .object, components: [name] + (try parsePathSuffix())), offset: start.offset)
        case .argument(let kind, let index):
            try advance()
            return ParsedExpression(node: try argument(kind, index: index, token: start), offset: start.offset, isArgument: true)
        case .keyword(.first), .keyword(.last), .keyword(.size), .keyword(.anyKey), .keyword(.fetch):
            throw unsupported("'\(start.text)' is not supported", at: start.offset)
        default:
            throw syntaxError("expected an expression", at: start.offset)
        }
    }

    /// The `.key.@count...` after a key, `SELF`, `$VAR` or `%K`.
    mutating func parsePathSuffix() throws(PredicateParseError) -> [String] {
        var components: [String] = []
        while token.kind == .punctuation(.dot) {
            try advance()
            switch token.kind {
            case .identifier(let key, _):
                components.append(key)
            case .keyword:
                // Unambiguous after a dot, so `team.in` is accepted; the printer still writes `#in`.
                components.append(token.text)
            case .collectionOperator(let name):
                guard Self.collectionOperators.contains(name) else {
                    throw unsupported("collection operator '\(name)' is not supported", at: token.offset)
                }
                components.append(name)
            case .argument(.keyPath, let index):
                // `%K.%K`: each argument adds its keys, as Core Data joins them into one path.
                components += try keyPathArgument(index: index, token: token)
            default:
                throw syntaxError("expected a key after '.'", at: token.offset)
            }
            try advance()
        }
        return components
    }

    private mutating func parseList() throws(PredicateParseError) -> FetchExpression.Node {
        try advance()
        var elements: [FetchExpression.Node] = []
        if token.kind == .punctuation(.rightBrace) {
            try advance()
            return .list(elements)
        }
        while true {
            elements.append(try parseExpression().node)
            switch token.kind {
            case .punctuation(.comma): try advance()
            case .punctuation(.rightBrace):
                try advance()
                return .list(elements)
            default: throw syntaxError("expected ',' or '}'", at: token.offset)
            }
        }
    }

    private mutating func parseSubquery() throws(PredicateParseError) -> FetchExpression.Node {
        // A subquery level takes about four times the stack of a parenthesis level, so it
        // counts as more of the nesting budget.
        try enterLevel()
        try enterLevel()
        defer {
            leaveLevel()
            leaveLevel()
        }
        try advance()
        try expect(.leftParen)
        let collection = try parseExpression().node
        try expect(.comma)
        guard case .variable(let variable) = token.kind else {
            throw syntaxError("expected a variable", at: token.offset)
        }
        try advance()
        try expect(.comma)
        let predicate = try parseOr()
        try expect(.rightParen)
        guard token.kind == .punctuation(.dot) else {
            return .subquery(collection: collection, variable: variable, predicate: predicate)
        }
        try advance()
        guard token.kind == .collectionOperator("@count") else {
            throw unsupported("only '.@count' may follow SUBQUERY(...)", at: token.offset)
        }
        try advance()
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate)
    }

    // MARK: - Numbers

    /// The value of a number token; integers that do not fit 64 bits become doubles, as they do
    /// in Core Data.
    static func number(_ spelling: String, isFloat: Bool, negative: Bool) -> PropertyValue {
        let sign = negative ? "-" : ""
        if isFloat { return .double(Double(sign + spelling) ?? .nan) }
        var digits = Substring(spelling)
        var radix = 10
        if digits.count > 2, digits.hasPrefix("0") {
            switch digits.dropFirst().first {
            case "x", "X": radix = 16
            case "o", "O": radix = 8
            case "b", "B": radix = 2
            default: break
            }
            if radix != 10 { digits = digits.dropFirst(2) }
        }
        if let integer = Int64(sign + digits, radix: radix) {
            // `-0` is how a negative zero prints: it stays one, so that it prints the same again.
            return negative && integer == 0 ? .double(-0.0) : .integer(integer)
        }
        // Too wide for Int64: a double, like Core Data's NSNumber.
        var magnitude = 0.0
        for digit in digits.unicodeScalars { magnitude = magnitude * Double(radix) + Double(PredicateLexer.digitValue(digit) ?? 0) }
        if radix == 10 { magnitude = Double(digits) ?? magnitude }
        return .double(negative ? -magnitude : magnitude)
    }
}
