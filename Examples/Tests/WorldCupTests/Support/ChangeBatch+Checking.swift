import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing
import WorldCupApp

extension ChangeBatch {
    /// The batch as the controller's changes it was made from, with object IDs read back from the
    /// team IDs, for the batch-update simulator.
    func changes(in scoreboard: Scoreboard) throws -> FetchedResultsChanges {
        func indexPath(_ position: RowPosition?) -> IndexPath? {
            position.map { IndexPath(indexes: [$0.section, $0.row]) }
        }
        return FetchedResultsChanges(
            sectionChanges: sections.map { .init(type: $0.change.type, sectionIndex: $0.index, name: $0.name) },
            objectChanges: try rows.map { change in
                let id = try #require(scoreboard.objectID(forTeamID: change.id), "the batch names an unknown team ID \(change.id)")
                return .init(type: change.change.type, objectID: id, indexPath: indexPath(change.from), newIndexPath: indexPath(change.to))
            })
    }
}

extension ChangeBatch.Change {
    var type: FetchedResultsChangeType {
        switch self {
        case .insert: .insert
        case .delete: .delete
        case .move: .move
        case .update: .update
        }
    }
}

extension Table {
    /// The table as the simulator's list: section names and object IDs.
    func list(in scoreboard: Scoreboard) throws -> SimulatedList<ManagedObjectID> {
        SimulatedList(try sections.map { section in
            (name: section.name, items: try section.teams.map { row in
                try #require(scoreboard.objectID(forTeamID: row.id), "unknown team ID \(row.id)")
            })
        })
    }
}
