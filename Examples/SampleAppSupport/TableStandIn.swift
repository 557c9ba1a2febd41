public import Foundation
public import OpenCoreData

/// What a sample app has instead of a `UITableView`: the fetched results controller's delegate,
/// which collects each batch of changes between `controllerWillChangeContent` and
/// `controllerDidChangeContent` (where a table calls `beginUpdates` and `endUpdates`) and keeps it
/// as one ``FetchedResultsChanges`` value, for the app to print and the tests to apply.
///
/// Subclass it to answer the other delegate questions, such as the section index titles.
open class TableStandIn: FetchedResultsControllerDelegate {
    /// Every batch delivered so far, oldest first.
    public private(set) var batches: [FetchedResultsChanges] = []
    private var pending = FetchedResultsChanges()

    /// A table that has seen no change yet.
    public init() {}

    open func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        pending = FetchedResultsChanges()
    }

    open func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                         atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        pending.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    open func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                         for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? ManagedObject else { return }
        pending.objectChanges.append(.init(type: type, objectID: object.objectID, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    open func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        batches.append(pending)
    }

    /// No title of its own: the controller's default (the name's first letter, uppercased).
    /// Declared here so that a subclass's override is the one the controller calls.
    open func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        nil
    }

    /// One line per change, as a table would apply them: `delete row [0,2] First Bank`.
    ///
    /// - Parameter label: A readable name for a changed object.
    public static func describe(_ batch: FetchedResultsChanges, label: (ManagedObjectID) -> String) -> [String] {
        func place(_ indexPath: IndexPath?) -> String {
            indexPath.map { "[\($0[0]),\($0[1])]" } ?? "-"
        }
        let sections = batch.sectionChanges.map { "\($0.type) section \($0.sectionIndex) \"\($0.name)\"" }
        let rows = batch.objectChanges.map { change in
            let position = switch change.type {
            case .insert: place(change.newIndexPath)
            case .delete: place(change.indexPath)
            case .move: "\(place(change.indexPath)) → \(place(change.newIndexPath))"
            case .update: place(change.newIndexPath ?? change.indexPath)
            }
            return "\(change.type) row \(position) \(label(change.objectID))"
        }
        return sections + rows
    }
}
