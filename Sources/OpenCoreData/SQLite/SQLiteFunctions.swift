import Foundation
import GRDB

/// SQL functions and collations the SQLite store registers on every connection, for what SQLite
/// lacks or does differently. Each calls the same Swift code as in-memory evaluation
/// (``StringMatching``), so a predicate or sort gives the same answer in both places.
enum SQLiteFunctions {
    /// `[c]`/`[d]` folding: `ocd_fold(text, options)`.
    static let fold = "ocd_fold"
    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`:
    /// `ocd_string_match(value, pattern, operation, options)`, 0 or 1 (0 when either is NULL).
    static let stringMatch = "ocd_string_match"
    /// Sort descriptors comparing case-insensitively.
    static let caseInsensitiveCollation = "ocd_case_insensitive"
    /// Sort descriptors comparing like `localizedStandardCompare`.
    static let localizedStandardCollation = "ocd_localized_standard"

    static func register(in db: Database) {
        db.add(collation: SQLiteValueCoding.decimalCollation)
        db.add(collation: DatabaseCollation(caseInsensitiveCollation) { lhs, rhs in
            order(StringMatching.compareBytes(StringMatching.fold(lhs, .caseInsensitive), StringMatching.fold(rhs, .caseInsensitive)))
        })
        db.add(collation: DatabaseCollation(localizedStandardCollation) { lhs, rhs in
            order(StringMatching.localizedStandardOrder(lhs, rhs))
        })
        db.add(function: DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
            guard let text = String.fromDatabaseValue(arguments[0]) else { return nil }
            return StringMatching.fold(text, options(arguments[1]))
        })
        db.add(function: DatabaseFunction(stringMatch, argumentCount: 4, pure: true) { arguments in
            guard let value = String.fromDatabaseValue(arguments[0]), let pattern = String.fromDatabaseValue(arguments[1]),
                  let code = Int.fromDatabaseValue(arguments[2]),
                  let operation = StringMatching.Operation(rawValue: code) else { return false }
            return StringMatching.match(operation, value: value, pattern: pattern, options: options(arguments[3]))
        })
    }

    private static func options(_ value: DatabaseValue) -> FetchPredicate.Options {
        FetchPredicate.Options(rawValue: UInt8(clamping: Int.fromDatabaseValue(value) ?? 0))
    }

    private static func order(_ value: Int) -> ComparisonResult {
        value < 0 ? .orderedAscending : (value == 0 ? .orderedSame : .orderedDescending)
    }
}
