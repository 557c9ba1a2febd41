import FetchedResultsChecking
import Foundation
import OpenCoreData

extension FetchedResultsChanges {
    /// The object changes as `insert -→[0,2]`, `delete [0,0]→-`, `update [0,1]→[0,1]`: what a table
    /// was told, without the objects.
    var summary: [String] {
        objectChanges.map { change in
            let from = change.indexPath.map(indexPathText) ?? "-"
            let to = change.newIndexPath.map(indexPathText) ?? "-"
            return "\(change.type) \(from)→\(to)"
        }
    }
}
