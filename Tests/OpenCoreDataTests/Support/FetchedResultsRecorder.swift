import Foundation
import OpenCoreData

/// A classic delegate that records every callback, and what the controller showed at
/// `controllerWillChangeContent` (Core Data's contract: the old contents) and at each change
/// (the new contents).
final class ClassicRecorder: FetchedResultsControllerDelegate, @unchecked Sendable {
    enum Call: Equatable, CustomStringConvertible {
        case willChange
        case section(FetchedResultsChangeType, Int, String)
        case object(FetchedResultsChangeType, ManagedObjectID, IndexPath?, IndexPath?)
        case didChange

        var description: String {
            switch self {
            case .willChange: "will"
            case .section(let type, let index, let name): "section \(type) \(index) \(name)"
            case .object(let type, let id, let from, let to):
                "\(type) \(from.map { "[\($0.section),\($0.row)]" } ?? "-")→\(to.map { "[\($0.section),\($0.row)]" } ?? "-") \(id.uriRepresentation().lastPathComponent)"
            case .didChange: "did"
            }
        }
    }

    var calls: [Call] = []
    /// Batches as values, cut at each didChange.
    var batches: [FetchedResultsChanges] = []
    private var current = FetchedResultsChanges()
    var countsAtWillChange: [Int] = []
    var titles: [String: String] = [:]

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        calls.append(.willChange)
        countsAtWillChange.append(controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? -1)
        current = FetchedResultsChanges()
    }

    func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let id = (anObject as? ManagedObject)?.objectID ?? (anObject as? ManagedObjectID)
        guard let id else { return }
        calls.append(.object(type, id, indexPath, newIndexPath))
        current.objectChanges.append(.init(type: type, objectID: id, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        calls.append(.section(type, sectionIndex, sectionInfo.name))
        current.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        calls.append(.didChange)
        batches.append(current)
    }

    func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        titles[sectionName]
    }
}

/// A snapshot delegate that keeps every snapshot.
final class SnapshotRecorder: FetchedResultsControllerSnapshotDelegate, @unchecked Sendable {
    var snapshots: [FetchedResultsSnapshot] = []
    var classicCalls = 0

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
}

/// A difference delegate that keeps every difference.
final class DifferenceRecorder: FetchedResultsControllerDifferenceDelegate, @unchecked Sendable {
    var differences: [CollectionDifference<ManagedObjectID>] = []
    var classicCalls = 0

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        differences.append(difference)
    }

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
}

extension AnyFetchedResultsController {
    /// The contents as section names and object IDs, for comparisons.
    var contents: [(name: String, ids: [ManagedObjectID])] {
        (sections ?? []).map { section in
            (section.name, (section.objects ?? []).compactMap { ($0 as? ManagedObject)?.objectID ?? ($0 as? ManagedObjectID) })
        }
    }
}
