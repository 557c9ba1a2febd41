/// SQL text with the values bound to its parameters, in the order their placeholders appear.
///
/// Values never go into the text: each is written as the dialect's
/// ``SQLDialect/parameterMarker`` and carried here as a ``PropertyValue``, which the store that
/// runs the statement binds in its own way (the SQLite store converts each to GRDB's
/// `DatabaseValue` where it executes the statement). Text that repeats a fragment repeats its
/// arguments too, so the arguments always follow the markers one for one.
package struct SQLFragment {
    package var sql: String
    package var arguments: [PropertyValue]

    package init(_ sql: String, _ arguments: [PropertyValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The fragment's text rewritten around itself, with the same arguments (`(NOT …)`).
    package func wrapped(_ transform: (String) -> String) -> SQLFragment {
        SQLFragment(transform(sql), arguments)
    }

    /// Terms joined by `AND` or `OR`, in parentheses, as a tree a database accepts however many
    /// terms there are; `empty` when there are none.
    ///
    /// SQLite parses `a OR b OR c …` into a chain as deep as the number of terms and refuses an
    /// expression deeper than 1,000 ("Expression tree is too large"); a balanced tree of
    /// parentheses would instead fill its parser's stack (about 30 nested parentheses). Runs of
    /// at most `fanOut` terms, themselves grouped by `fanOut`, keep both small: 64 terms nest
    /// 2 parentheses deep, a million 4. The arguments keep the order of the terms.
    package static func joined(_ terms: [SQLFragment], by keyword: String, ifEmpty empty: SQLFragment,
                               fanOut: Int = 64) -> SQLFragment {
        var level = terms
        repeat {
            level = stride(from: 0, to: level.count, by: fanOut).map { start in
                let run = level[start..<min(start + fanOut, level.count)]
                return SQLFragment("(" + run.map(\.sql).joined(separator: " \(keyword) ") + ")", run.flatMap(\.arguments))
            }
        } while level.count > 1
        return level.first ?? empty
    }
}

/// A value in compiled SQL, as a dialect sees it when it writes a comparison: a column, a scalar
/// subquery, a row key (an object) or a bound constant.
package struct SQLOperand {
    package var fragment: SQLFragment
    /// Whether the value is a row key: objects compare by key, never by attribute rules.
    package var isObject = false
    /// The attribute type of a column or aggregate; nil for constants (the resolver has already
    /// converted them to the type they are compared with) and row keys.
    package var type: AttributeType?
    /// The bound value, when the operand is one constant as it stands (not folded or computed):
    /// a dialect may write `c IS NULL` for nil, or decide a comparison from the value.
    package var constant: PropertyValue?

    package init(fragment: SQLFragment, isObject: Bool = false, type: AttributeType? = nil, constant: PropertyValue? = nil) {
        self.fragment = fragment
        self.isObject = isObject
        self.type = type
        self.constant = constant
    }
}
