/// A persistent history request that cannot be answered: a token the store's history no longer
/// covers, or a store that keeps no history.
///
/// An expired token is an ordinary condition, not a failure: history is pruned by its retention
/// rule, deleted with ``PersistentHistoryChangeRequest/deleteHistory(before:)-(PersistentHistoryToken?)``,
/// not recorded while a coordinator with tracking off writes, and another store's tokens never
/// apply. A reader that meets it falls back to one full refetch, then follows history again from
/// ``currentToken``:
///
/// ```swift
/// do {
///     try mergeHistory(after: lastToken)
/// } catch let error as PersistentHistoryError where error.code == PersistentHistoryError.expiredToken {
///     lastToken = error.currentToken                   // taken before the refetch: nothing is missed
///     context.perform { context.refreshAllObjects() }
///     try controller.performFetch()                    // and reload the list
/// }
/// ```
public struct PersistentHistoryError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What went wrong, naming the token and the store.
    public let message: String
    /// The token the request gave, for an expired token.
    public let token: PersistentHistoryToken?
    /// The store's position when the error was thrown: after a refetch, follow history from
    /// here. Nil when the store keeps no history.
    public let currentToken: PersistentHistoryToken?

    public var description: String { message }

    /// The store's history does not hold every transaction after the token (Core Data's
    /// `NSPersistentHistoryTokenExpiredError`): it was pruned or deleted, written with history
    /// tracking off, or the token belongs to another store.
    public static let expiredToken = CoreDataErrorCode(134301, "persistentHistoryTokenExpired")
    /// The store keeps no persistent history: its description turned tracking off, or its type
    /// has none.
    public static let historyUnavailable = CoreDataErrorCode(140601, "persistentHistoryUnavailable")
    /// A history request that cannot be run as given: a fetch request that is not for
    /// ``PersistentHistoryTransaction`` or ``PersistentHistoryChange``, a predicate that does not
    /// fit them, or a result type the request cannot return.
    public static let invalidRequest = CoreDataErrorCode(140602, "invalidPersistentHistoryRequest")

    init(_ code: CoreDataErrorCode, _ message: String, token: PersistentHistoryToken? = nil,
         currentToken: PersistentHistoryToken? = nil) {
        self.code = code
        self.message = message
        self.token = token
        self.currentToken = currentToken
    }

    static func expired(_ token: PersistentHistoryToken, current: PersistentHistoryToken, _ reason: String) -> PersistentHistoryError {
        PersistentHistoryError(expiredToken, "persistent history token \(token) has expired: \(reason)",
                               token: token, currentToken: current)
    }
}
