import Foundation

/// One object's change in a persistent history transaction: Core Data's
/// `NSPersistentHistoryChange`.
///
/// ```swift
/// for change in transaction.changes ?? [] where change.changeType == .delete {
///     print("deleted", change.changedObjectID, "named", change.tombstone?["teamName"] ?? "?")
/// }
/// ```
public final class PersistentHistoryChange: FetchRequestResult, Sendable, CustomStringConvertible {
    /// The change's identifier: unique in its store, increasing in commit order.
    public let changeID: Int64
    /// The object that changed.
    public let changedObjectID: ManagedObjectID
    /// Whether the object was inserted, updated or deleted.
    public let changeType: PersistentHistoryChangeType
    /// The names of the stored properties an update changed (to-many relationships included).
    let updatedPropertyNames: [String]
    /// The preserved attributes of a deleted object, in storage form.
    private let tombstoneValues: [String: PropertyValue]
    /// The transaction, held weakly: a transaction holds its changes.
    let owner: TransactionReference

    init(_ record: HistoryChangeRecord) {
        changeID = record.changeID
        changedObjectID = record.objectID
        changeType = record.type
        updatedPropertyNames = record.updatedProperties
        tombstoneValues = record.tombstone
        owner = TransactionReference()
    }

    /// The properties an update changed; nil for insertions and deletions.
    public var updatedProperties: Set<PropertyDescription>? {
        guard changeType == .update else { return nil }
        let entity = changedObjectID.entity
        return Set(updatedPropertyNames.compactMap { entity.property(named: $0) })
    }

    /// For a deletion, the values the deleted object had for the attributes its entity marks
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by name, as key-value coding
    /// returns them (`NSNumber` for numbers; a nil value is left out); nil for other changes.
    public var tombstone: [AnyHashable: Any]? {
        guard changeType == .delete else { return nil }
        var values: [AnyHashable: Any] = [:]
        for (name, value) in tombstoneValues {
            guard let attribute = changedObjectID.entity.property(named: name) as? AttributeDescription,
                  let boxed = attribute.keyValue(of: value) else { continue }
            values[name] = boxed
        }
        return values
    }

    /// The transaction the change belongs to. Changes fetched alone
    /// (``PersistentHistoryResultType/changesOnly``) hold a transaction without its
    /// ``PersistentHistoryTransaction/changes``; changes of a fetched transaction hold it weakly
    /// (it holds them), so keep the transaction to follow this link.
    public var transaction: PersistentHistoryTransaction? { owner.transaction }

    /// The entity history fetch requests for changes name (see
    /// ``PersistentHistoryChangeRequest/fetchRequest``).
    public static var entityDescription: EntityDescription? { PersistentHistoryModel.change }

    /// The change entity, as ``entityDescription``; the context is not needed here.
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? {
        entityDescription
    }

    /// A new fetch request for changes, to filter a history request by their properties:
    /// `changeID`, `changeType`, `changedEntity` (the entity's name), and the transaction's
    /// through `transaction` (`transaction.author`). Optional as in Core Data; never nil.
    ///
    /// ```swift
    /// let filter = PersistentHistoryChange.fetchRequest!
    /// filter.predicate = try FetchPredicate(format: "changedEntity == %@ AND changeType == %d",
    ///                                       "Team", PersistentHistoryChangeType.update.rawValue)
    /// request.fetchRequest = filter
    /// ```
    public static var fetchRequest: FetchRequest<PersistentHistoryChange>? {
        let request = FetchRequest<PersistentHistoryChange>()
        request.entity = PersistentHistoryModel.change
        return request
    }

    public var description: String {
        "<PersistentHistoryChange \(changeID) \(changeType) \(changedObjectID)\(changeType == .update ? " \(updatedPropertyNames)" : "")>"
    }
}

/// A change's way back to its transaction: weak when the transaction holds the change, strong
/// when it does not (changes fetched alone). Set once, while the result is built and before it
/// is shared, and read-only afterwards.
final class TransactionReference: @unchecked Sendable {
    private weak var held: PersistentHistoryTransaction?
    private var kept: PersistentHistoryTransaction?

    var transaction: PersistentHistoryTransaction? { kept ?? held }

    func attach(_ transaction: PersistentHistoryTransaction, strongly: Bool = false) {
        if strongly { kept = transaction } else { held = transaction }
    }
}
