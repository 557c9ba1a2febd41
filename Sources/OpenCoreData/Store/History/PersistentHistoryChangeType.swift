/// What a recorded change did to its object: Core Data's `NSPersistentHistoryChangeType`, with
/// its raw values.
public enum PersistentHistoryChangeType: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// The object was inserted.
    case insert = 0
    /// Stored properties of the object changed; ``PersistentHistoryChange/updatedProperties``
    /// names them.
    case update = 1
    /// The object was deleted; ``PersistentHistoryChange/tombstone`` holds the attributes its
    /// entity preserves.
    case delete = 2

    public var description: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }
}
