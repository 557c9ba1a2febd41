import Foundation

/// The string rules of predicates and sorts, shared by in-memory evaluation and the SQL
/// functions the SQLite store registers, so that both give the same answer: strings compare by
/// their UTF-8 bytes (as SQLite's BINARY collation and Core Data's literal comparison do), after
/// folding case and diacritics when `[c]` or `[d]` is given.
package enum StringMatching {
    /// The string with case and/or diacritics folded away, per the options.
    package static func fold(_ string: String, _ options: FetchPredicate.Options) -> String {
        guard !options.isEmpty else { return string }
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        return string.folding(options: compareOptions, locale: nil)
    }

    /// The string operators, with the codes the SQL function takes.
    package enum Operation: Int, Sendable {
        case beginsWith = 1, endsWith, contains, like, matches

        init?(_ op: FetchPredicate.Operator) {
            switch op {
            case .beginsWith: self = .beginsWith
            case .endsWith: self = .endsWith
            case .contains: self = .contains
            case .like: self = .like
            case .matches: self = .matches
            default: return nil
            }
        }
    }

    /// Applies a string operator with `[c]`/`[d]` options: the one definition both in-memory
    /// evaluation and the SQLite store's `ocd_string_match` function use.
    ///
    /// - Throws: ``FetchRequestError/regularExpressionTooComplex`` when `MATCHES` exceeds its
    ///   step limit.
    package static func match(_ operation: Operation, value: String, pattern: String,
                              options: FetchPredicate.Options) throws(FetchRequestError) -> Bool {
        if operation == .matches {
            // Case is left to the regular expression; diacritics are folded from the value.
            return try RegularExpressionMatching.matches(fold(value, options.subtracting(.caseInsensitive)), pattern,
                                                         caseInsensitive: options.contains(.caseInsensitive))
        }
        let text = fold(value, options)
        let part = fold(pattern, options)
        switch operation {
        case .beginsWith: return beginsWith(text, part)
        case .endsWith: return endsWith(text, part)
        case .contains: return contains(text, part)
        case .like, .matches: return like(text, part)
        }
    }

    /// Orders two strings by their UTF-8 bytes: negative, zero or positive.
    package static func compareBytes(_ lhs: String, _ rhs: String) -> Int {
        PropertyValue.compare(.string(lhs), .string(rhs))
    }

    // An empty string is found nowhere, as Foundation's `range(of:)` reports it (NSNotFound):
    // `BEGINSWITH ""`, `ENDSWITH ""` and `CONTAINS ""` match no string, the empty one included,
    // and neither does a part that folding empties (a lone combining accent under `[d]`).

    package static func beginsWith(_ value: String, _ prefix: String) -> Bool {
        !prefix.isEmpty && value.utf8.starts(with: prefix.utf8)
    }

    package static func endsWith(_ value: String, _ suffix: String) -> Bool {
        !suffix.isEmpty && value.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    package static func contains(_ value: String, _ part: String) -> Bool {
        let haystack = Array(value.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty else { return false }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one, `\` escapes the next character.
    /// Characters are Unicode scalars.
    package static func like(_ value: String, _ pattern: String) -> Bool {
        let text = Array(value.unicodeScalars)
        var tokens: [LikeToken] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                tokens.append(.literal(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            } else if scalar == "?" {
                tokens.append(.one)
            } else {
                tokens.append(.literal(scalar))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        return matchLike(text[...], tokens[...])
    }

    private enum LikeToken: Equatable {
        case literal(Unicode.Scalar)
        case one
        case anyRun
    }

    /// Glob matching with backtracking on the last `*`: linear for patterns with one `*`.
    private static func matchLike(_ text: ArraySlice<Unicode.Scalar>, _ pattern: ArraySlice<LikeToken>) -> Bool {
        var t = text.startIndex, p = pattern.startIndex
        var starP: Int?, starT = text.startIndex
        while t < text.endIndex {
            if p < pattern.endIndex {
                switch pattern[p] {
                case .anyRun:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .one:
                    t += 1
                    p += 1
                    continue
                case .literal(let scalar) where scalar == text[t]:
                    t += 1
                    p += 1
                    continue
                default:
                    break
                }
            }
            guard let star = starP else { return false }
            p = star + 1
            starT += 1
            t = starT
        }
        while p < pattern.endIndex, pattern[p] == .anyRun { p += 1 }
        return p == pattern.endIndex
    }

    /// The comparison `localizedStandard` sort descriptors use (Finder-like: case-insensitive,
    /// numbers by value).
    package static func localizedStandardOrder(_ lhs: String, _ rhs: String) -> Int {
        switch lhs.localizedStandardCompare(rhs) {
        case .orderedAscending: -1
        case .orderedSame: compareBytes(lhs, rhs)
        case .orderedDescending: 1
        }
    }
}
