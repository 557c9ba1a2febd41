public import Foundation

/// One committed transaction of a store's persistent history, a save (or, later, a batch
/// request): Core Data's `NSPersistentHistoryTransaction`.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as? PersistentHistoryResult
/// for transaction in result?.result as? [PersistentHistoryTransaction] ?? [] {
///     context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
public final class PersistentHistoryTransaction: FetchRequestResult, Sendable, CustomStringConvertible {
    /// When the transaction committed.
    public let timestamp: Date
    /// The objects it changed, in the order the store numbered them (new objects, updated ones,
    /// deleted ones); nil when the request asked for transactions only.
    public let changes: [PersistentHistoryChange]?
    /// Its number: commit order in its store.
    public let transactionNumber: Int64
    /// The identifier of its store.
    public let storeID: String
    /// The program that committed it: its bundle identifier, or its process name.
    public let bundleID: String
    /// The process that committed it.
    public let processID: String
    /// The ``ManagedObjectContext/name`` of the context that saved.
    public let contextName: String?
    /// The ``ManagedObjectContext/transactionAuthor`` of the context that saved.
    public let author: String?
    /// The position just after this transaction: fetch after it for what came next.
    public let token: PersistentHistoryToken

    init(_ record: HistoryTransactionRecord, storeID: String, changes: [HistoryChangeRecord]?) {
        timestamp = record.timestamp
        transactionNumber = record.number
        self.storeID = storeID
        bundleID = record.bundleID
        processID = record.processID
        contextName = record.contextName
        author = record.author
        token = PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: record.number)
        self.changes = changes?.map(PersistentHistoryChange.init)
        for change in self.changes ?? [] { change.owner.attach(self) }
    }

    /// A notification to merge the transaction into a context with
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)``, as after another context's save:
    /// ``ManagedObjectContext/didSaveObjectIDsNotification`` with the IDs of the inserted, updated
    /// and deleted objects (and, for observers of the merge, each update's property names).
    ///
    /// Merging reads the objects' current values from the store, which may be newer than this
    /// transaction: merge transactions in order, and a later one brings nothing stale back.
    public func objectIDNotification() -> Notification {
        typealias Key = ManagedObjectContext.NotificationKey
        var inserted = Set<ManagedObjectID>(), updated = Set<ManagedObjectID>(), deleted = Set<ManagedObjectID>()
        var changedKeys: [ManagedObjectID: Set<String>] = [:]
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update:
                updated.insert(change.changedObjectID)
                changedKeys[change.changedObjectID, default: []].formUnion(change.updatedPropertyNames)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return Notification(name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: [
            Key.insertedObjectIDs.rawValue: inserted, Key.updatedObjectIDs.rawValue: updated,
            Key.deletedObjectIDs.rawValue: deleted, Key.changedKeysByID.rawValue: changedKeys,
        ])
    }

    /// The entity history fetch requests for transactions name (see
    /// ``PersistentHistoryChangeRequest/fetchRequest``).
    public static var entityDescription: EntityDescription? { PersistentHistoryModel.transaction }

    /// The transaction entity, as ``entityDescription``; the context is not needed here.
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? {
        entityDescription
    }

    /// A new fetch request for transactions, to filter a history request by their properties:
    /// `timestamp`, `transactionNumber`, `author`, `contextName`, `bundleID`, `processID`,
    /// `storeID`. Optional as in Core Data; never nil.
    ///
    /// ```swift
    /// let filter = PersistentHistoryTransaction.fetchRequest!
    /// filter.predicate = try FetchPredicate(format: "author != %@", "importer")
    /// request.fetchRequest = filter
    /// ```
    public static var fetchRequest: FetchRequest<PersistentHistoryTransaction>? {
        let request = FetchRequest<PersistentHistoryTransaction>()
        request.entity = PersistentHistoryModel.transaction
        return request
    }

    public var description: String {
        "<PersistentHistoryTransaction \(transactionNumber) author: \(author ?? "nil"), context: \(contextName ?? "nil"), \(changes.map { "\($0.count) changes" } ?? "changes not fetched")>"
    }
}
