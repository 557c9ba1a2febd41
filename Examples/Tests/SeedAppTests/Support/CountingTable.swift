import ExampleSupport
import OpenCoreData

/// A test's table for an app that is given one: it also notes how many rows the controller
/// showed when each batch began, as UIKit notes a table's row counts before `beginUpdates`; the
/// controller must still show the old rows then.
final class CountingTable: TableStandIn {
    /// The number of objects the controller showed at each `controllerWillChangeContent`.
    private(set) var countsAtWillChange: [Int] = []

    override func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        countsAtWillChange.append(controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? -1)
        super.controllerWillChangeContent(controller)
    }
}
