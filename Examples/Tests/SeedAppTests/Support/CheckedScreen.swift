import ExampleSupport
import FailedBanksApp
import Foundation
import OpenCoreData
import RecipesApp

/// What the change tests need of a list that makes its own table (Failed Banks, Recipes).
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

/// A list on a new context of a scratch store, and the rows its table shows: after each change
/// the test calls ``TableMirror/applyReportedBatches()`` on ``table``.
struct CheckedScreen<List: CheckableList> {
    /// Holds the store, and its scratch directory, for as long as the screen is used.
    let store: ScratchStore
    let context: ManagedObjectContext
    let list: List
    let table: TableMirror

    init(_ store: ScratchStore, list make: (ManagedObjectContext) throws -> List) throws {
        self.store = store
        let context = store.container.newBackgroundContext()
        let list = try context.performAndWait { try make(context) }
        self.context = context
        self.list = list
        table = TableMirror(table: list.changeTable, container: store.container, request: List.request(), sectionKey: List.sectionKey)
        try table.load(list.controller)
    }
}
