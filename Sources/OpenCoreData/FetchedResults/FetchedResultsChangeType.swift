/// The kind of a change a fetched results controller reports, with Core Data's raw values.
public enum FetchedResultsChangeType: UInt, Sendable, Hashable, CustomStringConvertible {
    /// An object entered the results, or a section appeared.
    case insert = 1
    /// An object left the results, or a section disappeared.
    case delete = 2
    /// An object moved to another index path (its values may have changed too).
    case move = 3
    /// An object's values changed; it may have shifted along with other rows, but it did not
    /// move relative to the rows that did not change.
    case update = 4

    public var description: String {
        switch self {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
    }
}
