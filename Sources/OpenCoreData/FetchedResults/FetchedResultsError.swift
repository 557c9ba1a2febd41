/// A fetched results controller that cannot fetch as configured.
public struct FetchedResultsError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }

    /// The request has no sort descriptors (Core Data raises an exception).
    public static let missingSortDescriptors = CoreDataErrorCode(140401, "missingSortDescriptors")
    /// The section key path is not the first sort descriptor's key, so sections could not follow
    /// the sort order (Core Data silently mis-sections in this case).
    public static let sectionKeyMismatch = CoreDataErrorCode(140402, "sectionKeyMismatch")
    /// Objects came in an order that breaks sections apart (Core Data's error 134060).
    public static let outOfOrderSection = CoreDataErrorCode(134060, "outOfOrderSection")
    /// Dictionary results cannot be tracked for changes.
    public static let unsupportedResultType = CoreDataErrorCode(140403, "unsupportedResultType")

    init(_ code: CoreDataErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
