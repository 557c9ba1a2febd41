// The lexer for Core Data's predicate format language. It works on Unicode scalars, so every
// offset it reports (and every offset in a PredicateParseError) counts Unicode scalars from the
// start of the format string, as PredicateParseError documents.

/// A word the format language reserves. Matching is ASCII case-insensitive only, so that a key
/// such as `ın` (dotless i, which `uppercased()` turns into `IN`) stays a key.
enum PredicateKeyword: String, CaseIterable, Sendable {
    case and = "AND", or = "OR", not = "NOT"
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
    case `in` = "IN", like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO", null = "NULL", `nil` = "NIL"
    case `self` = "SELF", subquery = "SUBQUERY", cast = "CAST", function = "FUNCTION"
    // Reserved by Core Data for constructs this library does not support; they stay reserved so
    // that a format string means the same thing here as on Apple platforms.
    case first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY", fetch = "FETCH"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI"

    private static let byWord = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword `word` spells, ignoring ASCII case, or nil.
    init?(word: some StringProtocol) {
        var upper = ""
        for scalar in word.unicodeScalars {
            guard scalar.isASCII else { return nil }
            upper.unicodeScalars.append(("a"..."z").contains(scalar)
                ? Unicode.Scalar(scalar.value - 32) ?? scalar : scalar)
        }
        guard let keyword = Self.byWord[upper] else { return nil }
        self = keyword
    }
}

/// Operators and punctuation, spelled as in the format string.
enum PredicatePunctuation: String, CaseIterable, Sendable {
    case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = "."
    case equal = "==", assignEqual = "=", notEqual = "!=", lessGreater = "<>"
    case less = "<", lessEqual = "<=", equalLess = "=<"
    case greater = ">", greaterEqual = ">=", equalGreater = "=>"
    case bang = "!", ampersands = "&&", bars = "||"
    case plus = "+", minus = "-", star = "*", slash = "/"

    /// Each spelling by its one or two scalars (``code(_:_:)``): found with an integer's hash,
    /// not by building a string and comparing it with every spelling.
    private static let byCode = Dictionary(uniqueKeysWithValues: allCases.map { punctuation in
        let scalars = Array(punctuation.rawValue.unicodeScalars)
        return (code(scalars[0], scalars.count > 1 ? scalars[1] : nil), punctuation)
    })

    private static func code(_ first: Unicode.Scalar, _ second: Unicode.Scalar?) -> UInt64 {
        UInt64(first.value) << 32 | UInt64(second?.value ?? UInt32.max)
    }

    /// The punctuation spelled `first` then `second`, or `first` alone when `second` is nil.
    static func spelled(_ first: Unicode.Scalar, _ second: Unicode.Scalar?) -> PredicatePunctuation? {
        byCode[code(first, second)]
    }
}

/// What a `%` specifier asks for.
enum PredicateArgumentKind: Sendable {
    /// `%@`: any value.
    case object
    /// `%K`: a key path string.
    case keyPath
    /// `%d`, `%i`, `%u` and their `l`/`ll`/`h`/`q`/`z` forms.
    case integer
    /// `%f`, `%lf`, `%e`, `%g`.
    case double
    /// `%s`.
    case string
}

/// One token, with where it starts and how it is spelled (for error messages).
struct PredicateToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A key; `escaped` when written with a leading `#`.
        case identifier(String, escaped: Bool)
        case keyword(PredicateKeyword)
        case string(String)
        /// A number's spelling without sign: parsed by the parser, which knows about a leading `-`.
        case number(String, isFloat: Bool)
        /// `$NAME`
        case variable(String)
        /// `@count`, `@sum`, ...: the name including the `@`.
        case collectionOperator(String)
        /// A `%` specifier and the index of the argument it consumes.
        case argument(PredicateArgumentKind, index: Int)
        case punctuation(PredicatePunctuation)
        case end
    }

    var kind: Kind
    /// The offset in Unicode scalars of the token's first scalar.
    var offset: Int
    /// The token as written.
    var text: String
}

/// Splits a format string into tokens, one at a time so that the parser reports the leftmost
/// error whether it is lexical or grammatical.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    /// Where each scalar starts in `format`, and its end last: a token's text is then a copy of
    /// the format's bytes, where building it scalar by scalar cost thousands of instructions.
    private let scalarStarts: [String.Index]
    private let format: String
    private var position = 0
    private var argumentCount = 0

    init(format: String) {
        self.format = format
        scalars = Array(format.unicodeScalars)
        scalarStarts = Array(format.unicodeScalars.indices) + [format.unicodeScalars.endIndex]
    }

    // The character classes test ASCII first: Unicode's property tables cost a few hundred
    // instructions a look-up, and format strings are mostly ASCII.

    /// Letters (any script) and `_` start a key; the printer uses the same test to decide
    /// which keys need a `#`.
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        return scalar.properties.isAlphabetic
    }

    static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isIdentifierStart(scalar) || ("0"..."9").contains(scalar) }
        if isIdentifierStart(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII's whitespace: tab, line feed, vertical tab, form feed, carriage return, space.
        if scalar.isASCII { return scalar == " " || (9...13).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    mutating func next() throws(PredicateParseError) -> PredicateToken {
        while position < scalars.count, Self.isWhitespace(scalars[position]) { position += 1 }
        guard position < scalars.count else { return PredicateToken(kind: .end, offset: position, text: "") }
        let start = position
        let scalar = scalars[position]
        switch scalar {
        case "\"", "'":
            return try string(quote: scalar)
        case "0"..."9":
            return try number()
        case "$":
            position += 1
            let name = identifierRun()
            guard !name.isEmpty else { throw error("expected a variable name after '$'", at: start) }
            return token(.variable(name), from: start)
        case "#":
            position += 1
            let name = identifierRun()
            guard !name.isEmpty else { throw error("expected a key after '#'", at: start) }
            return token(.identifier(name, escaped: true), from: start)
        case "@":
            position += 1
            let name = identifierRun()
            guard !name.isEmpty else { throw error("unexpected '@'", at: start) }
            return token(.collectionOperator("@" + name), from: start)
        case "%":
            return try argument()
        default:
            if Self.isIdentifierStart(scalar) {
                let word = identifierRun()
                if let keyword = PredicateKeyword(word: word) { return token(.keyword(keyword), from: start) }
                return token(.identifier(word, escaped: false), from: start)
            }
            return try punctuation()
        }
    }

    // MARK: - Token kinds

    private mutating func punctuation() throws(PredicateParseError) -> PredicateToken {
        let start = position
        // Two-scalar operators first, so that `<=` is not read as `<` then `=`.
        if position + 1 < scalars.count,
           let punctuation = PredicatePunctuation.spelled(scalars[position], scalars[position + 1]) {
            position += 2
            return token(.punctuation(punctuation), from: start)
        }
        guard let punctuation = PredicatePunctuation.spelled(scalars[position], nil) else {
            // Invisible characters are named, so the message shows what is there.
            let single = String(scalars[position])
            let category = scalars[position].properties.generalCategory
            let shown = category == .control || category == .format
                ? "\\u{" + String(scalars[position].value, radix: 16, uppercase: true) + "}" : single
            throw error("unexpected '\(shown)'", at: start)
        }
        position += 1
        return token(.punctuation(punctuation), from: start)
    }

    private mutating func string(quote: Unicode.Scalar) throws(PredicateParseError) -> PredicateToken {
        let start = position
        position += 1
        var value = String.UnicodeScalarView()
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == quote {
                position += 1
                return token(.string(String(value)), from: start)
            }
            if scalar == "\\" {
                value.append(try escape(inStringFrom: start))
            } else {
                value.append(scalar)
                position += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    /// Reads the escape at `position` (a backslash) and returns the scalar it stands for.
    private mutating func escape(inStringFrom stringStart: Int) throws(PredicateParseError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard position < scalars.count else { throw error("unterminated string", at: stringStart) }
        let letter = scalars[position]
        position += 1
        switch letter {
        case "\"", "'", "\\": return letter
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0"..."7":
            // Up to three octal digits (`\101` is "A", `\0` NUL), as Core Data reads them.
            var code = letter.value - 48
            for _ in 0..<2 {
                guard position < scalars.count, ("0"..."7").contains(scalars[position]) else { break }
                code = code * 8 + scalars[position].value - 48
                position += 1
            }
            return Unicode.Scalar(code) ?? "\0"
        case "x":
            // Two hex digits: `\x41` is "A".
            let digits = hexRun(limit: 2)
            guard digits.count == 2, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                throw error("invalid hexadecimal escape", at: start)
            }
            return scalar
        case "u":
            let code: UInt32
            if position < scalars.count, scalars[position] == "{" {
                position += 1
                let digits = hexRun(limit: 8)
                guard !digits.isEmpty, position < scalars.count, scalars[position] == "}",
                      let value = UInt32(digits, radix: 16) else {
                    throw error("invalid unicode escape", at: start)
                }
                position += 1
                code = value
            } else {
                code = try fourHexDigits(escapeStart: start)
                // A UTF-16 surrogate pair written as two \u escapes, as JSON and Objective-C do.
                if (0xD800...0xDBFF).contains(code) {
                    guard position + 1 < scalars.count, scalars[position] == "\\", scalars[position + 1] == "u" else {
                        throw error("invalid unicode escape", at: start)
                    }
                    position += 2
                    let low = try fourHexDigits(escapeStart: start)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid unicode escape", at: start) }
                    return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("invalid unicode escape", at: start) }
            return scalar
        default:
            throw error("invalid escape '\\\(letter)'", at: start)
        }
    }

    private mutating func fourHexDigits(escapeStart: Int) throws(PredicateParseError) -> UInt32 {
        let digits = hexRun(limit: 4)
        guard digits.count == 4, let value = UInt32(digits, radix: 16) else {
            throw error("invalid unicode escape", at: escapeStart)
        }
        return value
    }

    private mutating func hexRun(limit: Int) -> String {
        var digits = ""
        while digits.count < limit, position < scalars.count, scalars[position].properties.isASCIIHexDigit {
            digits.unicodeScalars.append(scalars[position])
            position += 1
        }
        return digits
    }

    /// A decimal, hexadecimal (`0x`), octal (`0o`) or binary (`0b`) number. The spelling is kept
    /// for the parser, which applies a leading minus before converting so `Int64.min` fits.
    private mutating func number() throws(PredicateParseError) -> PredicateToken {
        let start = position
        var isFloat = false
        if scalars[position] == "0", position + 1 < scalars.count, "xXoObB".unicodeScalars.contains(scalars[position + 1]) {
            let radix = scalars[position + 1].properties.lowercaseMapping
            position += 2
            let digitsStart = position
            while position < scalars.count, let digit = Self.digitValue(scalars[position]),
                  digit < (radix == "x" ? 16 : radix == "o" ? 8 : 2) {
                position += 1
            }
            guard position > digitsStart else { throw invalidNumber(from: start) }
        } else {
            skipDigits()
            if position + 1 < scalars.count, scalars[position] == ".", isDigit(scalars[position + 1]) {
                isFloat = true
                position += 1
                skipDigits()
            }
            if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
                isFloat = true
                position += 1
                if position < scalars.count, scalars[position] == "+" || scalars[position] == "-" { position += 1 }
                guard position < scalars.count, isDigit(scalars[position]) else { throw invalidNumber(from: start) }
                skipDigits()
            }
        }
        // `12abc` is a typo, not the number 12 followed by the key abc.
        guard position == scalars.count || !Self.isIdentifierContinue(scalars[position]) else {
            throw invalidNumber(from: start)
        }
        return token(.number(text(from: start), isFloat: isFloat), from: start)
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// The value of an ASCII digit or letter digit up to base 36 (only ASCII: the lexer reads
    /// numbers written in ASCII).
    static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "0"..."9": Int(scalar.value - 48)
        case "a"..."z": Int(scalar.value - 87)
        case "A"..."Z": Int(scalar.value - 55)
        default: nil
        }
    }

    private mutating func skipDigits() {
        while position < scalars.count, isDigit(scalars[position]) { position += 1 }
    }

    private mutating func invalidNumber(from start: Int) -> PredicateParseError {
        while position < scalars.count, Self.isIdentifierContinue(scalars[position]) { position += 1 }
        return error("invalid number '\(text(from: start))'", at: start)
    }

    /// `%@`, `%K`, `%d`, ...: each takes the next argument, in the order written.
    private mutating func argument() throws(PredicateParseError) -> PredicateToken {
        let start = position
        position += 1
        var hasLength = false
        for length in ["ll", "hh", "l", "h", "q", "z"] where matches(length) {
            position += length.unicodeScalars.count
            hasLength = true
            break
        }
        guard position < scalars.count else { throw error("unknown format specifier '\(text(from: start))'", at: start) }
        let conversion = scalars[position]
        position += 1
        let kind: PredicateArgumentKind
        switch conversion {
        case "@" where !hasLength: kind = .object
        case "K" where !hasLength: kind = .keyPath
        case "s" where !hasLength: kind = .string
        case "d", "i", "u": kind = .integer
        case "f", "e", "g": kind = .double
        default: throw error("unknown format specifier '\(text(from: start))'", at: start)
        }
        defer { argumentCount += 1 }
        return token(.argument(kind, index: argumentCount), from: start)
    }

    // MARK: - Helpers

    private func matches(_ literal: String) -> Bool {
        var index = position
        for scalar in literal.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    /// Reads a run of identifier characters (possibly starting with a digit, which `#` and `$`
    /// allow).
    private mutating func identifierRun() -> String {
        let start = position
        while position < scalars.count, Self.isIdentifierContinue(scalars[position]) { position += 1 }
        return text(from: start)
    }

    private func text(from start: Int) -> String {
        String(format.unicodeScalars[scalarStarts[start]..<scalarStarts[position]])
    }

    private func token(_ kind: PredicateToken.Kind, from start: Int) -> PredicateToken {
        PredicateToken(kind: kind, offset: start, text: text(from: start))
    }

    private func error(_ message: String, at offset: Int) -> PredicateParseError {
        PredicateParseError(code: PredicateParseError.syntaxError, message: message, offset: offset, format: format)
    }
}
