import ExampleSupport
import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// What the tests need of a seed app's list screen: made like the seed's view controller, with
/// a context and a table, and built on a ``FetchedList``.
protocol SeedApp {
    associatedtype Result: ManagedObject
    /// What the app throws for a change it refuses.
    associatedtype Failure: Error & Equatable
    /// The app's model and store.
    associatedtype Store: ExampleStore
    /// The request the app's controller runs.
    static func fetchRequest() -> FetchRequest<Result>
    init(context: ManagedObjectContext, table: TableStandIn, now: @escaping () -> Date) throws
    var fetchedList: FetchedList<Result> { get }
}

/// A seed app on a scratch store, its table mirrored by a ``TableMirror`` that checks every batch
/// the app's controller reports against a fresh fetch.
struct SeedAppSession<App: SeedApp> {
    let store: ScratchStore
    let clock = SteppingClock()
    let table: TableMirror
    private(set) var app: App

    init() throws {
        store = try ScratchStore(App.Store.self)
        table = TableMirror(container: store.container, request: App.fetchRequest())
        app = try App(context: store.container.newBackgroundContext(), table: table.table, now: clock.next)
        try table.load(app.fetchedList.controller)
    }

    /// The loaded store's container.
    var container: PersistentContainer { store.container }

    /// The app's entity in the loaded model.
    var entity: EntityDescription? {
        container.managedObjectModel.entitiesByName[App.Result.entityName]
    }

    /// Quits and starts again on the same store, as each run of a tool does: a new context, a
    /// new screen, its table loaded from the first fetch.
    mutating func relaunch() throws {
        app = try App(context: container.newBackgroundContext(), table: table.table, now: clock.next)
        try table.load(app.fetchedList.controller)
    }

    /// Runs a change the app must save, applies the one batch it reports to the table, and
    /// checks the app's own rows are the table's.
    ///
    /// - Returns: What the change returned and the batch.
    @discardableResult
    func saved<Row>(_ change: (App) throws -> Row,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> (row: Row, changes: FetchedResultsChanges) {
        let row = try change(app)
        let batches = try table.applyReportedBatches()
        try #require(batches.count == 1, "one save, one batch: \(batches)", sourceLocation: sourceLocation)
        #expect(app.fetchedList.rows { object, _ in object.objectID } == table.rows.sections.first?.items,
                sourceLocation: sourceLocation)
        return (row, batches[0])
    }

    /// Runs a change the app must refuse with `expected`, and checks that nothing was reported,
    /// saved, or left pending in the context.
    func refused<Row>(_ change: (App) throws -> Row, with expected: App.Failure,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try table.fetched()
        #expect(throws: expected, sourceLocation: sourceLocation) { try change(app) }
        #expect(try table.applyReportedBatches().isEmpty, sourceLocation: sourceLocation)
        #expect(try table.fetched() == before, sourceLocation: sourceLocation)
        let context = app.fetchedList.context
        #expect(context.performAndWait { !context.hasChanges }, sourceLocation: sourceLocation)
    }
}
