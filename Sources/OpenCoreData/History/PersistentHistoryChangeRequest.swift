public import Foundation

/// A request to fetch or delete a store's persistent history: Core Data's
/// `NSPersistentHistoryChangeRequest`. Run it with ``ManagedObjectContext/execute(_:)``; the
/// result is a ``PersistentHistoryResult``.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let filter = PersistentHistoryTransaction.fetchRequest!
/// filter.predicate = try FetchPredicate(format: "author != %@", "importer")
/// request.fetchRequest = filter
/// let transactions = try (context.execute(request) as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction]
/// ```
///
/// A fetch after a token checks that the store still holds every transaction after it, and
/// throws ``PersistentHistoryError/expiredToken`` otherwise (see ``PersistentHistoryError``), where
/// Core Data returns what is left. Transactions always come in commit order; a fetch request's
/// sort descriptors are not used.
public final class PersistentHistoryChangeRequest: PersistentStoreRequest, @unchecked Sendable {
    enum Operation {
        case fetch(HistoryStart)
        case delete(HistoryCutoff?)
    }

    let operation: Operation

    /// What the request returns; ``PersistentHistoryResultType/transactionsAndChanges`` unless
    /// set. A deletion returns `true` for ``PersistentHistoryResultType/statusOnly`` and the number
    /// of transactions it deleted otherwise.
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges

    /// Which transactions or changes a fetch returns: a request made from
    /// ``PersistentHistoryTransaction/fetchRequest`` filters transactions (each comes with all its
    /// changes), one made from ``PersistentHistoryChange/fetchRequest`` filters changes (each
    /// transaction comes with its matching changes, and only transactions with one are returned).
    /// Its predicate, fetch limit and fetch offset apply; nil returns every transaction.
    public var fetchRequest: (any UntypedFetchRequest)?

    init(_ operation: Operation) {
        self.operation = operation
    }

    /// The token a fetch starts after, when it was made with one.
    public var token: PersistentHistoryToken? {
        if case .fetch(.after(let token)) = operation { return token }
        return nil
    }

    // MARK: Fetching

    /// A request for the transactions committed after a token; every transaction the store holds
    /// for a nil token.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetch(token.map(HistoryStart.after) ?? .beginning))
    }

    /// A request for the transactions committed after a transaction; every transaction the store
    /// holds for nil.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// A request for the transactions whose timestamp is after a date. No token is checked: the
    /// result is what the store holds.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetch(.afterDate(date)))
    }

    /// A request for the transactions or changes a fetch request selects (made from
    /// ``PersistentHistoryTransaction/fetchRequest`` or ``PersistentHistoryChange/fetchRequest``),
    /// among every one the store holds.
    public static func fetchHistory(withFetch fetchRequest: any UntypedFetchRequest) -> PersistentHistoryChangeRequest {
        let request = PersistentHistoryChangeRequest(.fetch(.beginning))
        request.fetchRequest = fetchRequest
        return request
    }

    // MARK: Deleting

    /// A request deleting the history a reader at `token` has read: the token's transaction and
    /// every earlier one. A nil token deletes every transaction.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete(token.map(HistoryCutoff.throughToken)))
    }

    /// A request deleting the transactions committed before `transaction` (which stays). A nil
    /// transaction deletes every transaction.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete(transaction.map { .beforeTransaction($0.transactionNumber) }))
    }

    /// A request deleting the transactions committed before the first one whose timestamp is at
    /// or after `date`: history is deleted oldest first, never from the middle.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete(.beforeDate(date)))
    }
}

/// What a ``PersistentHistoryChangeRequest`` returns, with Core Data's
/// `NSPersistentHistoryResultType` raw values.
public enum PersistentHistoryResultType: Int, Sendable, CaseIterable {
    /// `true` once the request ran.
    case statusOnly = 0
    /// The IDs of the changed objects, each once, in the order of their first change.
    case objectIDs = 1
    /// How many transactions the request selected (changes, for a request filtered by a
    /// ``PersistentHistoryChange/fetchRequest``), or deleted.
    case count = 2
    /// ``PersistentHistoryTransaction``s without their changes.
    case transactionsOnly = 3
    /// ``PersistentHistoryChange``s.
    case changesOnly = 4
    /// ``PersistentHistoryTransaction``s with their changes.
    case transactionsAndChanges = 5
}

/// The result of a ``PersistentHistoryChangeRequest``: Core Data's `NSPersistentHistoryResult`.
public final class PersistentHistoryResult: PersistentStoreResult, @unchecked Sendable {
    /// The kind of ``result``.
    public let resultType: PersistentHistoryResultType
    /// `Bool` for ``PersistentHistoryResultType/statusOnly``, `[ManagedObjectID]`, `Int` for
    /// counts, `[PersistentHistoryTransaction]` or `[PersistentHistoryChange]`, as
    /// ``resultType`` says.
    public let result: Any?

    init(resultType: PersistentHistoryResultType, result: Any?) {
        self.resultType = resultType
        self.result = result
    }
}
