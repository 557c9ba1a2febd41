import Foundation
import OpenCoreData

/// Stands in for the app's table view: it applies each change batch the way a table applies
/// `performBatchUpdates`, and prints what it does.
final class ScoreboardTable: FetchedResultsControllerDelegate {
    private var updates: [String] = []

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        updates = []
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        updates.append("\(type) section \(sectionIndex) \"\(sectionInfo.name)\"")
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let name = (anObject as? Team)?.teamName ?? "?"
        let place = [indexPath, newIndexPath].compactMap { $0.map { "[\($0.section), \($0.row)]" } }.joined(separator: " → ")
        updates.append("\(type) \(name) \(place)")
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        print("  table updates: " + updates.joined(separator: "; "))
    }

    /// Prints every section and team, as the table shows them.
    static func show(_ controller: FetchedResultsController<Team>) {
        for (number, section) in (controller.sections ?? []).enumerated() {
            print("  \(section.name)")
            for row in 0..<section.numberOfObjects {
                let team = controller.object(at: IndexPath(row: row, section: number))
                print("    \(team.teamName.padding(toLength: 18, withPad: ".", startingAt: 0)) \(team.wins)")
            }
        }
    }
}
