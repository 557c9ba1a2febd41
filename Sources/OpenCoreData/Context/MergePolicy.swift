/// How a save resolves rows that changed in the store since the saving context read them, with
/// Core Data's `NSMergePolicy` names.
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// ```
///
/// Each row carries a version that every save increments; a save whose rows no longer have the
/// version they were read at is in conflict (optimistic locking).
public final class MergePolicy: Sendable, CustomStringConvertible {
    /// The kinds of merge policy.
    public enum MergeType: Sendable, Hashable {
        /// Fail the save with ``ObjectGraphError/mergeConflict`` listing the conflicts.
        case errorMergePolicyType
        /// Per property: the store's changes win over this context's.
        case mergeByPropertyStoreTrumpMergePolicyType
        /// Per property: this context's changes win over the store's.
        case mergeByPropertyObjectTrumpMergePolicyType
        /// The whole object as this context has it overwrites the row.
        case overwriteMergePolicyType
        /// This context's changes to conflicting objects are discarded.
        case rollbackMergePolicyType
    }

    /// The policy's kind.
    public let mergeType: MergeType

    /// Creates a policy of the given kind.
    public init(merge type: MergeType) {
        mergeType = type
    }

    /// Fail the save on any conflict (the default).
    public static let error = MergePolicy(merge: .errorMergePolicyType)
    /// Per property, the store's changes win.
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// Per property, this context's changes win.
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// This context's objects overwrite the rows.
    public static let overwrite = MergePolicy(merge: .overwriteMergePolicyType)
    /// This context's conflicting changes are dropped.
    public static let rollback = MergePolicy(merge: .rollbackMergePolicyType)

    public var description: String { "MergePolicy(\(mergeType))" }
}

/// One object whose row changed in the store after the saving context read it.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The object in conflict.
    public let objectID: ManagedObjectID
    /// The keys the saving context changed.
    public let changedKeys: [String]
    /// The row version the context read.
    public let objectVersion: Int64
    /// The row version now in the store; nil when the row was deleted.
    public let storeVersion: Int64?

    /// Whether the row was deleted in the store.
    public var isDeletedInStore: Bool { storeVersion == nil }

    public var description: String {
        let state = storeVersion.map { "changed in the store (version \(objectVersion) → \($0))" } ?? "deleted in the store"
        return "\(objectID.entity.entityName) \(objectID): \(state); changed here: \(changedKeys.joined(separator: ", "))"
    }
}

/// Core Data's global spellings of the merge policies (`NSErrorMergePolicy`, …), for code that
/// assigns them to ``ManagedObjectContext/mergePolicy``.
public let ErrorMergePolicy = MergePolicy.error
/// ``MergePolicy/mergeByPropertyStoreTrump``, Core Data's `NSMergeByPropertyStoreTrumpMergePolicy`.
public let MergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// ``MergePolicy/mergeByPropertyObjectTrump``, Core Data's `NSMergeByPropertyObjectTrumpMergePolicy`.
public let MergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// ``MergePolicy/overwrite``, Core Data's `NSOverwriteMergePolicy`.
public let OverwriteMergePolicy = MergePolicy.overwrite
/// ``MergePolicy/rollback``, Core Data's `NSRollbackMergePolicy`.
public let RollbackMergePolicy = MergePolicy.rollback
