public import Foundation

/// A fetch request kept up to date: Core Data's `NSFetchedResultsController`. It fetches objects
/// into sections, then follows its context's changes and reports each change batch to its
/// delegate, as index-path changes a list can apply, as a snapshot, or as a difference.
///
/// ```swift
/// let request = Team.fetchRequest()
/// request.sortDescriptors = [FetchSortDescriptor(key: "qualifyingZone"),
///                            FetchSortDescriptor(key: "wins", ascending: false),
///                            FetchSortDescriptor(key: "teamName")]
/// request.fetchBatchSize = 20
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "qualifyingZone", cacheName: "worldCup")
/// controller.delegate = self
/// try controller.performFetch()
/// let team = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// Use a controller on its context's queue, as the context. Its callbacks run there,
/// synchronously, inside the `processPendingChanges()`, `save()` or merge that caused them.
///
/// Where it differs from Core Data, on purpose (see <doc:UsingAFetchedResultsController>):
/// - problems Core Data raises exceptions for (no sort descriptors, dictionary results with
///   tracking) and section names that do not follow the sort order make
///   ``AnyFetchedResultsController/performFetch()`` throw;
/// - every change batch is valid for a list: applied with UIKit's batch-update rules to the old
///   contents it gives exactly the new contents, and callbacks come in a fixed, documented order;
/// - processing a change costs about k·log n for k changed objects in n results: no refetch;
/// - `fetchLimit` and `fetchOffset` hold after every batch, not only at the fetch (see
///   ``AnyFetchedResultsController/keepsFetchWindow``);
/// - batching works in child contexts too.
public final class FetchedResultsController<ResultType: FetchRequestResult>: AnyFetchedResultsController, @unchecked Sendable {
    /// The request the controller fetches with. It is kept by reference, as in Core Data: to
    /// change the query, change the request (delete the cache if you use one) and call
    /// ``AnyFetchedResultsController/performFetch()`` again.
    public let fetchRequest: FetchRequest<ResultType>

    /// Creates a controller. Nothing is fetched until
    /// ``AnyFetchedResultsController/performFetch()``.
    ///
    /// - Parameters:
    ///   - fetchRequest: The request; it must have sort descriptors.
    ///   - context: The context to fetch in and follow.
    ///   - sectionNameKeyPath: The key path of the section names, whose sections must follow the
    ///     sort order (it is usually the first sort descriptor's key); nil for one section.
    ///   - cacheName: The name of an on-disk cache of the sections and results, which lets the
    ///     next launch skip the fetch; nil for none.
    public init(fetchRequest: FetchRequest<ResultType>, managedObjectContext context: ManagedObjectContext,
                sectionNameKeyPath: String?, cacheName: String?) {
        self.fetchRequest = fetchRequest
        request = AnyFetchRequest(fetchRequest)
        super.init(context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
    }

    /// The request's properties, read when asked: made once, since every batch asks.
    private let request: AnyFetchRequest

    override func currentRequest() -> AnyFetchRequest { request }

    override func requestPredicateRevision() -> Int { fetchRequest.predicateRevision }

    /// The fetched objects, in order, across sections; nil before
    /// ``AnyFetchedResultsController/performFetch()``. The collection is a snapshot: later changes
    /// do not alter it. Objects are created when read and load their values a batch at a time.
    public var fetchedObjects: FetchedObjects<ResultType>? {
        source.assertOnQueue()
        return currentIndex.map { FetchedObjects(controller: self, index: $0) }
    }

    /// The object at an index path.
    ///
    /// Stops the program with Core Data's message when the index path is out of range, as an
    /// array subscript does.
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let result = anyObject(at: indexPath) as? ResultType else {
            preconditionFailure("the object at \(indexPath) is not a \(ResultType.self)")
        }
        return result
    }

    /// The index path of an object, or nil if it is not in the results. Index paths change only
    /// when pending changes are processed.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        switch object {
        case let managed as ManagedObject:
            return anyIndexPath(forObjectID: managed.objectID, object: managed)
        case let id as ManagedObjectID:
            return anyIndexPath(forObjectID: id, object: nil)
        default:
            return dictionaryIndexPath(of: object)
        }
    }

    /// The controller's change batches as an async sequence, for code that prefers it to a
    /// delegate. A sequence turns change tracking on; it ends when the controller is deallocated.
    ///
    /// ```swift
    /// for await batch in controller.changes {
    ///     table.apply(batch)
    /// }
    /// ```
    public var changes: AsyncStream<FetchedResultsChanges> { makeChangeStream() }

    /// The controller's contents after each fetch and each change batch, as an async sequence
    /// of snapshots. Each element costs O(n): prefer ``changes`` for large results.
    public var snapshots: AsyncStream<FetchedResultsSnapshot> { makeSnapshotStream() }

    /// The controller's failures to follow a change, as an async sequence: what
    /// ``FetchedResultsControllerDelegate/controller(_:didFailWith:)`` hears, for code that reads
    /// ``changes`` instead of having a delegate. The ``changes`` sequence goes on: its next batch
    /// after a failure takes a list from what it showed to the fresh results.
    ///
    /// ```swift
    /// for await failure in controller.failures {
    ///     logger.warning("the team list is catching up: \(failure)")
    /// }
    /// ```
    public var failures: AsyncStream<FetchedResultsError> { makeFailureStream() }
}

/// The fetched objects of a controller: a random-access collection over a snapshot of its
/// rows. Objects are created, as faults, when read, and load their values a batch at a time
/// (``FetchRequest/fetchBatchSize``). Use it on the controller's context queue.
public struct FetchedObjects<Element: FetchRequestResult>: RandomAccessCollection {
    let controller: AnyFetchedResultsController
    let index: ResultIndex

    public var startIndex: Int { 0 }
    public var endIndex: Int { index.count }

    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < index.count, "index \(position) out of range 0..<\(index.count)")
        guard let element = controller.result(at: position, in: index) as? Element else {
            preconditionFailure("the object at \(position) is not a \(Element.self)")
        }
        return element
    }
}
