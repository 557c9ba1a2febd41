import Foundation
public import OpenCoreData

extension TableStandIn {
    /// One line per change, as a table would apply them: `delete row [0,2] First Bank`,
    /// `insert section 5 "Snack"`.
    ///
    /// ```swift
    /// for line in TableStandIn.describe(batch, label: { names[$0] ?? "?" }) { print("  table: \(line)") }
    /// ```
    ///
    /// - Parameters:
    ///   - batch: One batch of ``batches``.
    ///   - label: A readable name for a changed object.
    /// - Returns: The section changes, then the row changes.
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
