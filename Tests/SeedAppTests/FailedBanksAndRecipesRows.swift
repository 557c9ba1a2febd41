import FailedBanksApp
import FetchedResultsChecking
import Foundation
import OpenCoreData
import RecipesApp
import SampleAppSupport
import Testing

// A table's rows for both apps' change tests: the batches a sample app's table collected, applied
// with UIKit's rules and compared with a fresh fetch.

/// What the change tests need of a sample app's list.
protocol CheckableList {
    associatedtype Row: ManagedObject
    var controller: FetchedResultsController<Row> { get }
    /// The list's delegate.
    var changeTable: TableStandIn { get }
    /// The list's request, for fresh fetches.
    static func request() -> FetchRequest<Row>
    /// The key path of the sections, if any.
    static var sectionKey: String? { get }
}

extension BankList: CheckableList {
    var changeTable: TableStandIn { table }
    static var sectionKey: String? { nil }
}

extension RecipeList: CheckableList {
    var changeTable: TableStandIn { table }
    static var sectionKey: String? { "type" }
}

/// A sample app's store in a scratch directory, as the tests make one.
protocol StoreFixture {
    var container: PersistentContainer { get }
}

extension FailedBanksImportedStore: StoreFixture {}
extension RecipesSampleStore: StoreFixture {}

/// A list on a new context, and the rows its table shows: after each change the test calls
/// ``CheckedRows/applyNewBatches()``.
struct CheckedScreen<List: CheckableList> {
    /// Holds the store, and its scratch directory, for as long as the screen is used.
    let store: any StoreFixture
    let context: ManagedObjectContext
    let list: List
    let rows: CheckedRows

    init(_ store: any StoreFixture, list make: (ManagedObjectContext) throws -> List) throws {
        self.store = store
        let context = store.container.newBackgroundContext()
        let list = try context.performAndWait { try make(context) }
        self.context = context
        self.list = list
        rows = context.performAndWait {
            CheckedRows(list.controller, table: list.changeTable) { try freshRows(List.request(), sectionKey: List.sectionKey, in: context) }
        }
    }
}

/// The rows a table shows for a sample app's list, kept up to date by applying each batch the
/// app's ``TableStandIn`` collected, the way UIKit applies `performBatchUpdates`.
final class CheckedRows {
    private let context: ManagedObjectContext
    private let table: TableStandIn
    private let fresh: () throws -> SimulatedList<ManagedObjectID>
    private var applied = 0
    /// The rows after the batches applied so far.
    private(set) var rows: SimulatedList<ManagedObjectID>

    /// Starts from what the controller shows now.
    ///
    /// - Parameter fresh: The rows a fresh fetch gives: what each batch must lead to.
    init(_ controller: AnyFetchedResultsController, table: TableStandIn, fresh: @escaping () throws -> SimulatedList<ManagedObjectID>) {
        context = controller.managedObjectContext
        self.table = table
        self.fresh = fresh
        rows = SimulatedList(controller.contents.map { (name: $0.name, items: $0.ids) })
    }

    /// Applies the batches delivered since the last call, each with both mappings a table's
    /// delegate may use, and checks the rows equal a fresh fetch after each.
    ///
    /// Call it after each change: the rows are compared with a fetch made now.
    ///
    /// - Returns: The batches applied, with the objects' current IDs (permanent after a save).
    @discardableResult
    func applyNewBatches() throws -> [FetchedResultsChanges] {
        let batches = Array(table.batches[applied...])
        applied = table.batches.count
        var seenBatches: [FetchedResultsChanges] = []
        for batch in batches {
            // A table holds objects, which keep their identity when a save makes their IDs permanent.
            let seen = FetchedResultsChanges(sectionChanges: batch.sectionChanges, objectChanges: batch.objectChanges.map {
                .init(type: $0.type, objectID: current($0.objectID), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
            })
            let old = rows.map(current)
            let expected = try fresh()
            try old.verifyApplying(seen, mapping: .uikitMoves, moveRules: .lenient, expected: expected)
            rows = try old.verifyApplying(seen, mapping: .deleteAndInsert, expected: expected)
            seenBatches.append(seen)
        }
        return seenBatches
    }

    private func current(_ id: ManagedObjectID) -> ManagedObjectID {
        context.object(with: id).objectID
    }
}

/// The rows of a fresh fetch of `request`, in sections by the string at `sectionKey` (one
/// unnamed section without one), as a controller should show them.
func freshRows<T: ManagedObject>(_ request: FetchRequest<T>, sectionKey: String?, in context: ManagedObjectContext) throws
    -> SimulatedList<ManagedObjectID> {
    let objects = try context.fetch(request)
    guard let sectionKey else { return SimulatedList(items: objects.map(\.objectID)) }
    var sections: [SimulatedList<ManagedObjectID>.Section] = []
    for object in objects {
        let name = object.value(forKey: sectionKey) as? String ?? ""
        if sections.last?.name != name { sections.append(.init(name, [])) }
        sections[sections.count - 1].items.append(object.objectID)
    }
    return SimulatedList(sections: sections)
}
