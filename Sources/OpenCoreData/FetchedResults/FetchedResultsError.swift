/// A fetched results controller that cannot fetch as configured, or could not follow a change.
public struct FetchedResultsError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What is wrong and how to fix it.
    public let message: String
    /// The error that caused this one (a store read that failed, for instance), if any.
    public let underlyingError: (any Error)?

    public var description: String { message }

    /// The request has no sort descriptors (Core Data raises an exception).
    public static let missingSortDescriptors = CoreDataErrorCode(140401, "missingSortDescriptors")
    /// Objects came in an order that breaks sections apart (Core Data's error 134060).
    public static let outOfOrderSection = CoreDataErrorCode(134060, "outOfOrderSection")
    /// Dictionary results cannot be tracked for changes; count results cannot be shown.
    public static let unsupportedResultType = CoreDataErrorCode(140403, "unsupportedResultType")
    /// ``AnyFetchedResultsController/performFetch()`` was called from a delegate callback, in the
    /// middle of a change batch (Core Data would start a nested batch there).
    public static let fetchDuringChangeDelivery = CoreDataErrorCode(140404, "fetchDuringChangeDelivery")
    /// A change batch could not be computed (a store read failed, for instance): the controller
    /// still shows what it showed before, and refetches to catch up (Core Data has no such
    /// report; its controller goes stale silently). See
    /// ``FetchedResultsControllerDelegate/controller(_:didFailWith:)``.
    public static let changeProcessingFailed = CoreDataErrorCode(140405, "changeProcessingFailed")
    /// A sort key the controller cannot follow: a to-many relationship's `@count`, which
    /// changes with other objects. Sort by a derived attribute holding the count instead.
    public static let unsupportedSortKey = CoreDataErrorCode(140406, "unsupportedSortKey")
    /// ``AnyFetchedResultsController/applyFetchWindow()`` was called before
    /// ``AnyFetchedResultsController/performFetch()``.
    public static let notFetched = CoreDataErrorCode(140407, "notFetched")

    init(_ code: CoreDataErrorCode, _ message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }
}
