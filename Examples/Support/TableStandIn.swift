public import Foundation
public import OpenCoreData

/// What an example app has instead of a `UITableView`: the fetched results controller's
/// delegate, which collects each batch of changes between `controllerWillChangeContent` and
/// `controllerDidChangeContent` (where a table calls `beginUpdates` and `endUpdates`) and keeps it
/// as one ``FetchedResultsChanges`` value, for the app to print and the tests to apply.
///
/// Subclass it to show each changed row as it is reported (override
/// ``rowDidChange(_:_:)``), or to answer the other delegate questions, such as the section index
/// titles.
///
/// ```swift
/// let table = TableStandIn()
/// let list = try FetchedList(request: request, context: context, table: table)
/// try list.saveChange { ... }
/// table.batches.last  // the save's inserts, deletes, moves and updates
/// ```
open class TableStandIn: FetchedResultsControllerDelegate {
    /// Every batch delivered so far, oldest first. Read it on the context's queue.
    public private(set) var batches: [FetchedResultsChanges] = []
    private var pending = FetchedResultsChanges()

    /// A table that has seen no change yet.
    public init() {}

    /// Called for each changed row as the controller reports it, after it is recorded; does
    /// nothing unless overridden.
    ///
    /// A deleted object can still be read here, which it cannot be once the save is over: the
    /// place to print a row's contents.
    ///
    /// - Parameters:
    ///   - object: The object whose row changed.
    ///   - change: The change, with the row before and after it.
    open func rowDidChange(_ object: ManagedObject, _ change: FetchedResultsChanges.ObjectChange) {}

    /// Starts a batch, where a table calls `beginUpdates`.
    open func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        pending = FetchedResultsChanges()
    }

    /// Records a section inserted or deleted.
    open func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                         atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        pending.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    /// Records a row inserted, deleted, moved or updated, then calls ``rowDidChange(_:_:)``.
    open func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                         for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? ManagedObject else { return }
        let change = FetchedResultsChanges.ObjectChange(type: type, objectID: object.objectID, indexPath: indexPath,
                                                        newIndexPath: newIndexPath)
        pending.objectChanges.append(change)
        rowDidChange(object, change)
    }

    /// Ends the batch, where a table calls `endUpdates`, and keeps it in ``batches``.
    open func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        batches.append(pending)
    }

    /// No title of its own: the controller's default (the name's first letter, uppercased).
    /// Declared here so that a subclass's override is the one the controller calls.
    open func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        nil
    }
}
