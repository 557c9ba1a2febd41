import Foundation
import GRDB

/// SQL functions and collations the SQLite store registers on every connection, for what SQLite
/// lacks or does differently. Each calls the same Swift code as in-memory evaluation
/// (``StringMatching``), so a predicate or sort gives the same answer in both places.
enum SQLiteFunctions {
    /// `[c]`/`[d]` folding: `ocd_fold(text, options)`; a value that is not text comes back
    /// unchanged, as memory compares it unfolded.
    static let fold = "ocd_fold"
    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`:
    /// `ocd_string_match(value, pattern, operation, options)`, 0 or 1 (0 when either is NULL).
    /// A `MATCHES` over its step limit fails the statement with the error memory throws.
    static let stringMatch = "ocd_string_match"
    /// Orders a decimal against another number as memory does:
    /// `ocd_compare_numbers(a, aIsDecimal, b, bIsDecimal)`, -1, 0 or 1 (NULL when either is).
    static let compareNumbers = "ocd_compare_numbers"
    /// `@sum` and `@avg`: aggregates that add up as ``PredicateEvaluator/aggregate(_:_:)`` does
    /// (no overflow error, NaN as nil, the sum of nothing is 0).
    static let sum = "ocd_sum"
    static let avg = "ocd_avg"
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
        db.add(function: DatabaseFunction(compareNumbers, argumentCount: 4, pure: true) { arguments in
            func value(_ index: Int) -> PropertyValue? {
                if Bool.fromDatabaseValue(arguments[index + 1]) == true, let text = String.fromDatabaseValue(arguments[index]) {
                    return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal)
                }
                return number(arguments[index])
            }
            guard let lhs = value(0), let rhs = value(2) else { return nil }
            return PropertyValue.compare(lhs, rhs).signum()
        })
        db.add(function: DatabaseFunction(sum, argumentCount: 1, pure: true, aggregate: EvaluatorAggregate<SumChoice>.self))
        db.add(function: DatabaseFunction(avg, argumentCount: 1, pure: true, aggregate: EvaluatorAggregate<AverageChoice>.self))
        db.add(function: DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
            guard case .string(let text) = arguments[0].storage else { return arguments[0] }
            return StringMatching.fold(text, options(arguments[1]))
        })
        db.add(function: DatabaseFunction(stringMatch, argumentCount: 4, pure: true) { arguments in
            guard let value = String.fromDatabaseValue(arguments[0]), let pattern = String.fromDatabaseValue(arguments[1]),
                  let code = Int.fromDatabaseValue(arguments[2]),
                  let operation = StringMatching.Operation(rawValue: code) else { return false }
            do throws(FetchRequestError) {
                return try StringMatching.match(operation, value: value, pattern: pattern, options: options(arguments[3]))
            } catch {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: predicateErrorMarker + error.message)
            }
        })
    }

    /// Starts the message of an error a function raises for a ``FetchRequestError``, so that the
    /// store can throw that error rather than an SQLite one.
    private static let predicateErrorMarker = "OpenCoreData.FetchRequestError.regularExpressionTooComplex: "

    /// The ``FetchRequestError`` a function of ours raised to stop a statement, or nil for any
    /// other error.
    static func predicateError(raisedBy error: any Error) -> FetchRequestError? {
        guard let message = (error as? DatabaseError)?.message, message.hasPrefix(predicateErrorMarker) else { return nil }
        return FetchRequestError(FetchRequestError.regularExpressionTooComplex, String(message.dropFirst(predicateErrorMarker.count)))
    }

    /// The value of an aggregated column as the evaluator sees it.
    static func number(_ value: DatabaseValue) -> PropertyValue? {
        switch value.storage {
        case .int64(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .string(let text): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal)
        default: nil
        }
    }

    fileprivate static func result(_ value: PropertyValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .integer(let integer): integer
        case .double(let double): double
        case .decimal(let decimal): decimal.description
        default: nil
        }
    }

    private static func options(_ value: DatabaseValue) -> FetchPredicate.Options {
        FetchPredicate.Options(rawValue: UInt8(clamping: Int.fromDatabaseValue(value) ?? 0))
    }

    private static func order(_ value: Int) -> ComparisonResult {
        value < 0 ? .orderedAscending : (value == 0 ? .orderedSame : .orderedDescending)
    }
}

/// `@sum` or `@avg` over a group, computed by the evaluator's own code.
private struct EvaluatorAggregate<Function: AggregateFunctionChoice>: DatabaseAggregate {
    var values: [PropertyValue] = []

    mutating func step(_ arguments: [DatabaseValue]) {
        if let value = SQLiteFunctions.number(arguments[0]) { values.append(value) }
    }

    func finalize() -> (any DatabaseValueConvertible)? {
        SQLiteFunctions.result(PredicateEvaluator.aggregate(Function.function, values))
    }
}

/// Which aggregate an ``EvaluatorAggregate`` computes (GRDB makes aggregates with `init()`).
private protocol AggregateFunctionChoice {
    static var function: ResolvedKeyPath.AggregateFunction { get }
}

private enum SumChoice: AggregateFunctionChoice {
    static var function: ResolvedKeyPath.AggregateFunction { .sum }
}

private enum AverageChoice: AggregateFunctionChoice {
    static var function: ResolvedKeyPath.AggregateFunction { .avg }
}
