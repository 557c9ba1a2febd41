import Foundation

extension PropertyValue {
    /// Whether this is a floating-point or decimal NaN, or a date at NaN seconds.
    ///
    /// Predicates give NaN the meaning Swift and Foundation's `#Predicate` give it: it equals
    /// nothing, not even NaN, and is neither less nor greater than anything, so of the
    /// comparisons only `!=` is true of it. Stores never hold NaN (saving a NaN double is
    /// refused), so NaN comes only from constants and arguments, and from unsaved objects.
    /// (Core Data differs between its paths: `NSNumber` orders NaN before every number in memory,
    /// and SQLite binds NaN as NULL.)
    package var isNaN: Bool {
        switch self {
        case .double(let double): double.isNaN
        case .decimal(let decimal): decimal.isNaN
        case .date(let date): date.timeIntervalSinceReferenceDate.isNaN
        default: false
        }
    }
}
