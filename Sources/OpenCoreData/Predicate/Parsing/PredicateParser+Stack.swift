import Foundation

extension PredicateParser {
    /// Parses `format` into a tree: where it is called when the format is shallow, and on a thread
    /// with a stack of its own when it may nest deeply.
    ///
    /// The parser recurses once per parenthesis, `NOT` and `SUBQUERY`, and a debug build spends
    /// about 4 KB of stack per parenthesis and 12 KB per `SUBQUERY`: the printed form of a predicate
    /// as deep as ``FetchPredicate/maximumNestingDepth`` allows needs more than the 512 KB of a
    /// secondary thread. Nearly every format has a handful of parentheses and parses in place.
    static func parse(format: String, arguments: [Any?]) throws -> FetchPredicate.Node {
        guard mayNestDeeply(format) else {
            var parser = try PredicateParser(format: format, arguments: arguments)
            return try parser.parse()
        }
        // The calling thread waits for the result, so the arguments are never used by two threads
        // at once.
        let work = UncheckedSendable(value: (format, arguments))
        let outcome = Locked<Result<FetchPredicate.Node, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Result { () throws -> FetchPredicate.Node in
                var parser = try PredicateParser(format: work.value.0, arguments: work.value.1)
                return try parser.parse()
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = deepFormatStackSize
        thread.start()
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw PredicateParseError(code: PredicateParseError.unsupportedSyntax, message: "the format could not be parsed", offset: 0, format: format)
        }
        return try result.get()
    }

    /// Room for ``maximumDepth`` levels of the costliest kind, with a margin for sanitizers, whose
    /// instrumentation makes frames several times larger. Only the pages touched are ever used.
    static let deepFormatStackSize = 32 * 1024 * 1024

    /// Whether the format holds enough parentheses and `NOT`s (counted anywhere, even in strings)
    /// that parsing it might need more stack than any thread has.
    static func mayNestDeeply(_ format: String) -> Bool {
        var openers = 0
        var beforeLast: UInt8 = 0, last: UInt8 = 0
        for byte in format.utf8 {
            // `(`, `!`, and the last letter of `NOT` in any case.
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "!")
                || (byte | 0x20 == UInt8(ascii: "t") && last | 0x20 == UInt8(ascii: "o") && beforeLast | 0x20 == UInt8(ascii: "n")) {
                openers += 1
                if openers > 16 { return true }
            }
            (beforeLast, last) = (last, byte)
        }
        return false
    }
}

/// A value handed to another thread while its owner waits for that thread to finish.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
