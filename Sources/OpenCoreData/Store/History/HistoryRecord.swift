package import Foundation

/// One committed transaction as a store keeps it in its history: what
/// ``PersistentHistoryTransaction`` is made from. Store-neutral: the SQLite store reads it from
/// its history tables, the in-memory store keeps it as is, a server store would read it from its
/// own tables.
package struct HistoryTransactionRecord: Sendable {
    /// The store generation the transaction committed: commit order, with no gaps while every
    /// commit is recorded.
    package var number: Int64
    package var timestamp: Date
    package var author: String?
    package var contextName: String?
    package var bundleID: String
    package var processID: String
    /// Empty when the fetch asked for transactions only.
    package var changes: [HistoryChangeRecord]

    package init(number: Int64, timestamp: Date, author: String?, contextName: String?, bundleID: String, processID: String,
                 changes: [HistoryChangeRecord]) {
        self.number = number
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.bundleID = bundleID
        self.processID = processID
        self.changes = changes
    }
}

/// One changed object of a recorded transaction.
package struct HistoryChangeRecord: Sendable {
    /// Unique in the store, increasing in commit order.
    package var changeID: Int64
    package var objectID: ManagedObjectID
    package var type: PersistentHistoryChangeType
    /// For updates: the names of the stored properties that changed.
    package var updatedProperties: [String]
    /// For deletions: the values of the attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by name.
    package var tombstone: [String: PropertyValue]
    /// The attribute values the change overwrote, by name: for updates the changed attributes',
    /// for deletions every attribute's. Not API: a context that merges the change from history
    /// finds with them where the row was in a sorted result, as it does with a save's pre-images.
    package var priorValues: [String: PropertyValue]

    package init(changeID: Int64, objectID: ManagedObjectID, type: PersistentHistoryChangeType,
                 updatedProperties: [String] = [], tombstone: [String: PropertyValue] = [:],
                 priorValues: [String: PropertyValue] = [:]) {
        self.changeID = changeID
        self.objectID = objectID
        self.type = type
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.priorValues = priorValues
    }
}

/// Who commits a save: the saving context's ``ManagedObjectContext/transactionAuthor`` and
/// ``ManagedObjectContext/name``, recorded with its transaction.
package struct HistoryTransactionInfo: Sendable, Equatable {
    package var author: String?
    package var contextName: String?

    package init(author: String? = nil, contextName: String? = nil) {
        self.author = author
        self.contextName = contextName
    }
}

/// Which transactions a history fetch starts from.
package enum HistoryStart: Sendable, Equatable {
    /// Every transaction the store still holds.
    case beginning
    /// Transactions committed after the token's. The store checks that it holds every one of
    /// them, and throws ``PersistentHistoryError/expiredToken`` otherwise.
    case after(PersistentHistoryToken)
    /// Transactions whose timestamp is later than the date.
    case afterDate(Date)
}

/// Which transactions a history deletion removes: every one before a cutoff.
package enum HistoryCutoff: Sendable, Equatable {
    /// The token's transaction and every earlier one: what a reader at the token has read.
    case throughToken(PersistentHistoryToken)
    /// Transactions committed before the one with this number.
    case beforeTransaction(Int64)
    /// Transactions committed before the first one whose timestamp is at or after the date.
    case beforeDate(Date)
}

/// Who commits: the process and program a transaction records.
package enum HistoryProcess {
    /// The program's bundle identifier, or its name where it has none (on Linux, most programs).
    package static let bundleID: String = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    package static let processID = String(ProcessInfo.processInfo.processIdentifier)
}
