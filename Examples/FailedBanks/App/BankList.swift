public import ExampleSupport
import Foundation
public import OpenCoreData

/// The seed's master list without UIKit: every failed bank, the latest closing first, loaded
/// twenty at a time as rows are read.
///
/// The request fetches `FailedBankInfo` sorted by a key path through its to-one relationship,
/// `details.closeDate`. With a batch size, the fetch reads only the ordered IDs; reading a row
/// loads its batch of twenty banks, and their details with them (prefetched, since the screen
/// shows each bank's close date).
///
/// The seed also names a section cache (`"Root"`); this list does not, so that every launch
/// shows the ID query that the seed's SQL log is about.
///
/// Use a list on its context's queue, as the context.
public final class BankList {
    /// Banks loaded per query.
    public static let batchSize = 20
    /// The rows the first screen shows.
    public static let screenRows = 10

    /// The context the list reads and edits.
    public let context: ManagedObjectContext
    /// The controller behind the list.
    public let controller: FetchedResultsController<FailedBankInfo>
    /// The controller's delegate, which collects each batch of changes.
    public let table = TableStandIn()

    /// The list's request: every bank, latest close date first, in batches.
    public static func request() -> FetchRequest<FailedBankInfo> {
        let request = FailedBankInfo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "details.closeDate", ascending: false)]
        request.fetchBatchSize = batchSize
        request.relationshipKeyPathsForPrefetching = ["details"]
        return request
    }

    /// A list of the banks in `context`, fetched and following changes.
    public init(context: ManagedObjectContext) throws {
        self.context = context
        controller = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: context,
                                              sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = table
        try controller.performFetch()
    }

    /// How many banks the list holds.
    public var count: Int {
        controller.rowCount
    }

    /// The bank at a row, counted from 0; `row` must be below ``count``.
    public func bank(atRow row: Int) -> FailedBankInfo {
        controller.object(at: IndexPath(row: row, section: 0))
    }

    /// The first screen's rows, as the table shows them.
    public func firstScreen() -> [BankRow] {
        (0..<min(Self.screenRows, count)).map { BankRow(bank(atRow: $0)) }
    }
}
