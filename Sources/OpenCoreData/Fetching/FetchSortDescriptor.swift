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
/// Nil values sort first in ascending order and last in descending order, as in Core Data's
/// SQLite store. Strings compare by their UTF-8 bytes in the store and in memory alike.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The attribute to sort by.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort descriptor.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// The same key in the other direction.
    public var reversedSortDescriptor: FetchSortDescriptor {
        FetchSortDescriptor(key: key, ascending: !ascending)
    }

    public var description: String { "\(key) \(ascending ? "ascending" : "descending")" }
}
