public import Foundation

/// Receives a fetched results controller's changes with the four classic callbacks: Core Data's
/// `NSFetchedResultsControllerDelegate`.
///
/// Every method has a default that does nothing; implement the ones you need. Adopting this
/// protocol turns change tracking on.
///
/// Swift has no optional protocol methods, so the form of the callbacks is chosen by the protocol
/// the delegate adopts, following Core Data's precedence:
///
/// 1. ``FetchedResultsControllerSnapshotDelegate``: only the snapshot method is called (after every
///    fetch and every change batch);
/// 2. otherwise ``FetchedResultsControllerDifferenceDelegate``, for an unsectioned controller:
///    only the difference method is called;
/// 3. otherwise the classic callbacks below.
///
/// Callbacks run synchronously on the controller's context queue, inside the call that processed
/// the change (`processPendingChanges()`, `save()`, a merge).
///
/// ```swift
/// extension TeamList: FetchedResultsControllerDelegate {
///     func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { table.beginUpdates() }
///     func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
///                     for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
///         switch type {
///         case .insert: table.insertRows(at: [newIndexPath!])
///         case .delete: table.deleteRows(at: [indexPath!])
///         case .move: table.deleteRows(at: [indexPath!]); table.insertRows(at: [newIndexPath!])
///         case .update: table.reloadRows(at: [indexPath!])
///         }
///     }
///     func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { table.endUpdates() }
/// }
/// ```
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A batch of changes is about to be reported; the controller still shows the old contents.
    func controllerWillChangeContent(_ controller: AnyFetchedResultsController)

    /// An object was inserted, deleted, moved or updated. The controller already shows the new
    /// contents.
    ///
    /// - Parameters:
    ///   - controller: The controller whose contents changed.
    ///   - anObject: The object (a managed object, or an object ID for ID results).
    ///   - indexPath: Its old index path; nil for an insert.
    ///   - type: What happened.
    ///   - newIndexPath: Its new index path; nil for a delete, and for an update whose sort or
    ///     section keys changed without moving it (Core Data's update in place).
    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted or deleted.
    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)

    /// The batch is complete.
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController)

    /// The index title for a section name, instead of the name's first letter, uppercased.
    /// Return nil to use the default.
    func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?

    /// The controller could not follow a change (a store read failed, for instance). Not part of
    /// Core Data, whose controller goes stale silently.
    ///
    /// The controller keeps showing what it showed before the failure, so a list that applied
    /// every batch so far still matches it. It then catches up by fetching again: right after
    /// this call, on the context's queue, and at every later change until a fetch succeeds. The
    /// first batch after that takes the list from what it showed to what is true now (rows that
    /// changed while the controller could not follow them are reported as updates), so a list
    /// that goes on applying batches needs nothing else. If fetching keeps failing, this method
    /// is called again for each attempt.
    ///
    /// ```swift
    /// func controller(_ controller: AnyFetchedResultsController, didFailWith error: FetchedResultsError) {
    ///     banner.show("The list may be out of date: \(error)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - controller: The controller that fell behind.
    ///   - error: A ``FetchedResultsError/changeProcessingFailed`` error whose
    ///     ``FetchedResultsError/underlyingError`` is the store's.
    func controller(_ controller: AnyFetchedResultsController, didFailWith error: FetchedResultsError)
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {}
    public func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {}
    public func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        nil
    }
    public func controller(_ controller: AnyFetchedResultsController, didFailWith error: FetchedResultsError) {}
}

/// A delegate that receives the controller's whole contents as a ``FetchedResultsSnapshot``
/// after each fetch and each change batch, instead of the classic callbacks.
public protocol FetchedResultsControllerSnapshotDelegate: FetchedResultsControllerDelegate {
    /// The controller's contents changed (or were fetched): here they are, by object ID.
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot)
}

/// A delegate of an unsectioned controller that receives each change batch as a
/// `CollectionDifference` of object IDs, instead of the classic callbacks. A sectioned controller
/// calls the classic callbacks instead.
public protocol FetchedResultsControllerDifferenceDelegate: FetchedResultsControllerDelegate {
    /// The rows changed: inserts and removes by row offset; updated and moved objects appear as
    /// an associated remove and insert.
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>)
}
