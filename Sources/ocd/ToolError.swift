import Foundation
import OpenCoreData

/// Why `ocd` stops before finishing, with its exit status: 64 (`EX_USAGE` in `sysexits.h`) when
/// the command line is wrong, 1 when the store cannot be opened or read.
struct ToolError: Error {
    static let usageStatus: Int32 = 64
    static let failureStatus: Int32 = 1

    let status: Int32
    let message: String

    private init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    /// A command line `ocd` cannot run: an unknown command or option, a missing or malformed
    /// value, an entity, key or predicate that does not fit the store.
    static func usage(_ message: String) -> ToolError {
        ToolError(status: usageStatus, message: message + "\nrun 'ocd help' for usage")
    }

    /// A store that cannot be opened or read.
    static func failure(_ message: String) -> ToolError {
        ToolError(status: failureStatus, message: message)
    }

    /// The library's error, sorted by whose fault it is: a predicate or sort key that does not
    /// fit the entity was given on the command line; anything else is the store's.
    init(_ error: any Error) {
        switch error {
        case let error as ToolError:
            self = error
        case let error as PredicateParseError:
            self = .usage("the predicate is malformed: \(error)")
        case let error as FetchRequestError:
            self = .usage(error.message)
        case let error as FetchedResultsError where error.code == FetchedResultsError.outOfOrderSection:
            self = .usage("\(error.message); sort by the section key first (--sort \"KEY,...\")")
        case let error as PersistentStoreError:
            self = .failure(error.description)
        default:
            self = .failure("\(error)")
        }
    }
}
