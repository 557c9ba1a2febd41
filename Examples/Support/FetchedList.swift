public import Foundation
public import OpenCoreData

/// A one-section list screen without the screen: a fetched results controller, fetched at once,
/// and the table it tells of every change.
///
/// The list never updates its table itself. A change is saved, and the controller reports it to
/// the table: the table is never told twice, which is what the seeds' "Invalid update" crash
/// came from.
///
/// ```swift
/// let list = try FetchedList(request: request, context: context, table: printer)
/// let (car, indexPath) = try list.saveChange {
///     let car = Car(context: context)
///     car.dateCreated = Date()
///     return car
/// }
/// ```
public final class FetchedList<Result: ManagedObject> {
    /// The context the objects live in.
    public let context: ManagedObjectContext
    /// The controller whose rows the list shows; read it on the context's queue.
    public let controller: FetchedResultsController<Result>
    /// The controller's delegate, which hears of every change; the controller holds it weakly,
    /// so the list keeps it.
    public let table: TableStandIn

    /// A list of a request's results, fetched at once.
    ///
    /// - Parameters:
    ///   - request: The request, with sort descriptors and without a predicate: every object the
    ///     list saves stays in it.
    ///   - context: The objects' context.
    ///   - table: The controller's delegate, kept for the list's lifetime.
    /// - Throws: The fetch's errors.
    public init(request: FetchRequest<Result>, context: ManagedObjectContext, table: TableStandIn) throws {
        self.context = context
        self.table = table
        controller = context.performAndWait {
            FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        }
        controller.delegate = table
        try context.performAndWait { try controller.performFetch() }
    }

    /// Every row as the controller shows them, made into values on the context's queue.
    ///
    /// - Parameter row: Makes a row's value from its object and index path.
    /// - Returns: The rows, in order.
    /// - Complexity: O(n); objects are loaded in batches as they are read.
    public func rows<Row>(_ row: (Result, IndexPath) -> Row) -> [Row] {
        context.performAndWait {
            (0..<controller.rowCount).map { index in
                let indexPath = IndexPath(row: index, section: 0)
                return row(controller.object(at: indexPath), indexPath)
            }
        }
    }

    /// The object at an index path a user chose, or nil when the list has no such row.
    ///
    /// Call it on the context's queue.
    ///
    /// - Parameter indexPath: A section and row; only section 0 exists.
    /// - Returns: The object, or nil.
    public func object(at indexPath: IndexPath) -> Result? {
        guard indexPath.count == 2, indexPath.section == 0 else { return nil }
        return controller.object(atRow: indexPath.row)
    }

    /// Changes one object and saves, or rolls the context back if either fails.
    ///
    /// - Parameter change: Makes the change and returns the object it inserted or changed.
    /// - Returns: The object and its index path after the save.
    /// - Throws: The change's or the save's error.
    public func saveChange(_ change: () throws -> Result) throws -> (Result, IndexPath) {
        try context.performAndWait {
            let object = try context.saveOrRollback(change)
            guard let indexPath = controller.indexPath(forObject: object) else {
                preconditionFailure("a saved \(Result.self) left the list: a FetchedList's request has no predicate")
            }
            return (object, indexPath)
        }
    }

    /// Deletes one object and saves, or rolls the context back if the save fails.
    ///
    /// - Parameter object: The object, which the list shows.
    /// - Throws: The save's error.
    public func saveDeletion(of object: Result) throws {
        try context.performAndWait {
            try context.saveOrRollback { context.delete(object) }
        }
    }
}
