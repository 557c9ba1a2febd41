/// Why ``ManagedObject/awake(fromSnapshotEvents:)`` is called: Core Data's `NSSnapshotEventType`,
/// with its raw values.
public struct SnapshotEventType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// An undo or redo took out the object's insertion (see
    /// ``ManagedObjectContext/undoManager``).
    public static let undoInsertion = SnapshotEventType(rawValue: 1 << 1)
    /// An undo or redo brought the deleted object back.
    public static let undoDeletion = SnapshotEventType(rawValue: 1 << 2)
    /// An undo or redo put back values of the object's properties.
    public static let undoUpdate = SnapshotEventType(rawValue: 1 << 3)
    /// ``ManagedObjectContext/rollback()`` restored the object's saved values.
    public static let rollback = SnapshotEventType(rawValue: 1 << 4)
    /// ``ManagedObjectContext/refresh(_:mergeChanges:)`` reloaded the object's values under its
    /// unsaved changes.
    public static let refresh = SnapshotEventType(rawValue: 1 << 5)
    /// A merge policy resolved a save's conflict with the store's row: the object now has the
    /// values the policy chose (or, written back over a deleted row, is inserted again).
    public static let mergePolicy = SnapshotEventType(rawValue: 1 << 6)
}
