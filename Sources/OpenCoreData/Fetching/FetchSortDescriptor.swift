/// One sort key of a fetch: an attribute name and a direction. Core Data's `NSSortDescriptor`,
/// renamed because Foundation already has a `SortDescriptor` type.
///
/// ```swift
/// request.sortDescriptors = [
///     FetchSortDescriptor(key: "qualifyingZone", ascending: true),
///     FetchSortDescriptor(key: "wins", ascending: false),
/// ]
/// ```
///
/// The key may go through to-one relationships (`details.closeDate`). Nil values sort first in
/// ascending order and last in descending order, as in Core Data's SQLite store. Strings compare
/// by their UTF-8 bytes unless a ``Comparison`` says otherwise; the store and memory give the
/// same order, and ties are broken by object ID.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How strings compare: Core Data's selectors `compare:`, `caseInsensitiveCompare:` and
    /// `localizedStandardCompare:`.
    public enum Comparison: Sendable, Hashable {
        /// By UTF-8 bytes (the default; Core Data's `compare:` on the SQLite store).
        case binary
        /// Ignoring case.
        case caseInsensitive
        /// As a file browser sorts names: ignoring case, numbers by value (`"file2" < "file10"`).
        case localizedStandard
    }

    /// The key path of the attribute to sort by.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings compare.
    public var comparison: Comparison

    /// Creates a sort descriptor.
    ///
    /// - Parameters:
    ///   - key: An attribute, possibly through to-one relationships: `"details.closeDate"`.
    ///   - ascending: Whether smaller values come first.
    ///   - comparison: How strings compare.
    public init(key: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same key and comparison in the other direction.
    public var reversedSortDescriptor: FetchSortDescriptor {
        FetchSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    public var description: String {
        "\(key) \(ascending ? "ascending" : "descending")\(comparison == .binary ? "" : " (\(comparison))")"
    }
}
