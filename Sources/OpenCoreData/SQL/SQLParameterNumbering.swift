/// Numbered placeholders (`$1`, `$2`, …) for dialects whose database takes them, such as
/// PostgreSQL's: fragments are compiled bottom-up and combined in any order, so numbers are given
/// once the statement's text is complete, by position, which is the order of its arguments.
package enum SQLParameterNumbering {
    /// `sql` with each `marker` replaced, in order, by `prefix` and its position from 1.
    package static func numbered(_ sql: String, marker: Unicode.Scalar, prefix: String = "$") -> String {
        var result = String.UnicodeScalarView()
        var position = 0
        for scalar in sql.unicodeScalars {
            if scalar == marker {
                position += 1
                result.append(contentsOf: (prefix + String(position)).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
