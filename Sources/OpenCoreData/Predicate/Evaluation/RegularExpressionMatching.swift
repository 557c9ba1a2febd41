import Foundation

/// `MATCHES`: the whole string against an ICU regular expression, as Core Data matches it, with a
/// bounded amount of backtracking.
///
/// ICU (through `NSRegularExpression`) is a backtracking engine: a pattern with nested repetition
/// such as `(a+)+b` takes time exponential in the length of a value it almost matches (a minute
/// for 30 characters). The engine reports its progress every 10,000 backtracking steps; after
/// ``FetchPredicate/maximumRegularExpressionSteps`` the match stops with
/// ``FetchRequestError/regularExpressionTooComplex``, as it does when the engine runs out of
/// backtracking memory (where `NSRegularExpression` alone would quietly report no match). The
/// count does not depend on the machine or its load, so memory and SQL (which calls this same
/// code) stop on the same values.
enum RegularExpressionMatching {
    /// ICU's unit of progress: one report per this many backtracking steps.
    static let stepsPerReport = 10_000

    /// Whether `value` as a whole matches `pattern`; false for a pattern that is not a valid
    /// regular expression (the parser refuses those; key paths and dictionaries can still bring one).
    ///
    /// - Throws: ``FetchRequestError/regularExpressionTooComplex`` when matching takes more than
    ///   ``FetchPredicate/maximumRegularExpressionSteps`` steps or more backtracking memory than
    ///   the engine has.
    static func matches(_ value: String, _ pattern: String, caseInsensitive: Bool) throws(FetchRequestError) -> Bool {
        guard let regex = compiled(pattern, caseInsensitive: caseInsensitive) else { return false }
        let allowedReports = FetchPredicate.maximumRegularExpressionSteps / stepsPerReport
        var reports = 0
        var matched = false
        var failed = false
        // `\A` anchors the pattern already; `.anchored` also keeps ICU from trying later starts.
        regex.enumerateMatches(in: value, options: [.anchored, .reportProgress, .reportCompletion],
                               range: NSRange(location: 0, length: value.utf16.count)) { result, flags, stop in
            if result != nil {
                matched = true
                stop.pointee = true
            } else if flags.contains(.progress) {
                reports += 1
                if reports >= allowedReports { stop.pointee = true }
            } else if flags.contains(.internalError) {
                failed = true  // ICU ran out of its backtracking stack (8 MB)
            }
        }
        guard !matched else { return true }
        if reports >= allowedReports || failed {
            let limit = reports >= allowedReports ? "after \(FetchPredicate.maximumRegularExpressionSteps) backtracking steps"
                                                  : "when the regular-expression engine ran out of backtracking memory"
            throw FetchRequestError(FetchRequestError.regularExpressionTooComplex,
                                    "MATCHES \(PredicatePrinter.quoted(pattern)) gave up \(limit) on a value of \(value.count) characters; nested repetition such as (a+)+ backtracks exponentially, so rewrite the pattern without it")
        }
        return false
    }

    /// Why `pattern` is not a valid regular expression, or nil if it is.
    static func problem(in pattern: String) -> String? {
        guard compiled(pattern, caseInsensitive: false) == nil else { return nil }
        // ICU's error says only that the pattern is invalid. Swift's parser of the same syntax
        // says where and why, when it refuses the pattern too.
        do {
            _ = try Regex(pattern)
        } catch {
            let reason = "\(error)"
            if !reason.isEmpty { return reason }
        }
        return "not a valid ICU regular expression"
    }

    // MARK: Compiling

    private struct CachedRegex: @unchecked Sendable {
        /// `NSRegularExpression` is immutable and safe to share between threads; nil for an invalid pattern.
        let regex: NSRegularExpression?
    }

    private static let cache = Locked<[String: CachedRegex]>([:])

    private static func compiled(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached.regex }
        let entry = CachedRegex(regex: wholeMatch(pattern, options: caseInsensitive ? [.caseInsensitive] : []))
        cache.withLock { cache in
            if cache.count > 256 { cache.removeAll() }
            cache[key] = entry
        }
        return entry.regex
    }

    /// The pattern anchored at both ends of the input, `\A(?:pattern)\z`, or nil if the pattern
    /// is not valid on its own.
    ///
    /// The pattern's end may swallow what follows it: an unterminated `\Q` quotes it, and a `#`
    /// comment in free-spacing mode (`(?x)`) runs to the end of the line. Either way our closing
    /// parenthesis is lost and `(?:` stays open, so the wrapped pattern fails to compile; the
    /// next ending closes the quote (`\E`) or the comment (a newline, which free spacing
    /// ignores). A wrapped pattern that compiles has its group closed by our parenthesis, so
    /// it means "the whole input matches the pattern".
    private static func wholeMatch(_ pattern: String, options: NSRegularExpression.Options) -> NSRegularExpression? {
        // ICU refuses an empty pattern, which as a whole-string match means "is empty".
        guard pattern.isEmpty || (try? NSRegularExpression(pattern: pattern, options: options)) != nil else { return nil }
        for ending in [#")\z"#, #"\E)\z"#, "\n" + #")\z"#] {
            if let regex = try? NSRegularExpression(pattern: #"\A(?:"# + pattern + ending, options: options) {
                return regex
            }
        }
        return nil
    }
}
