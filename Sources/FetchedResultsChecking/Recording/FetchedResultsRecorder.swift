public import Foundation
public import OpenCoreData

/// A classic delegate that records every callback, and what the controller showed at
/// `controllerWillChangeContent` (Core Data's contract: the old contents) and at each change
/// (the new contents).
///
/// Unchecked Sendable because a controller calls its delegate on its context's queue, and the
/// recorder is read only there or after the context has gone quiet.
public final class ClassicRecorder: FetchedResultsControllerDelegate, @unchecked Sendable {
    /// One delegate callback, with what it was given.
    public enum Call: Equatable, CustomStringConvertible {
        case willChange
        case section(FetchedResultsChangeType, Int, String)
        case object(FetchedResultsChangeType, ManagedObjectID, IndexPath?, IndexPath?)
        case didChange

        public var description: String {
            switch self {
            case .willChange: "will"
            case .section(let type, let index, let name): "section \(type) \(index) \(name)"
            case .object(let type, let id, let from, let to):
                "\(type) \(from.map { "[\($0.section),\($0.row)]" } ?? "-")→\(to.map { "[\($0.section),\($0.row)]" } ?? "-") \(id.uriRepresentation().lastPathComponent)"
            case .didChange: "did"
            }
        }
    }

    /// Every callback, in order.
    public var calls: [Call] = []
    /// Batches as values, cut at each didChange.
    public var batches: [FetchedResultsChanges] = []
    private var current = FetchedResultsChanges()
    /// The number of objects the controller showed at each `controllerWillChangeContent`.
    public var countsAtWillChange: [Int] = []
    /// Section index titles to answer with, by section name; nil (the default title) otherwise.
    public var titles: [String: String] = [:]
    /// The failures the controller reported, in order.
    public var failures: [FetchedResultsError] = []

    /// A recorder that has seen nothing yet.
    public init() {}

    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        calls.append(.willChange)
        countsAtWillChange.append(controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? -1)
        current = FetchedResultsChanges()
    }

    public func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let id = (anObject as? ManagedObject)?.objectID ?? (anObject as? ManagedObjectID)
        guard let id else { return }
        calls.append(.object(type, id, indexPath, newIndexPath))
        current.objectChanges.append(.init(type: type, objectID: id, indexPath: indexPath, newIndexPath: newIndexPath))
    }

    public func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        calls.append(.section(type, sectionIndex, sectionInfo.name))
        current.sectionChanges.append(.init(type: type, sectionIndex: sectionIndex, name: sectionInfo.name))
    }

    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        calls.append(.didChange)
        batches.append(current)
    }

    public func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        titles[sectionName]
    }

    public func controller(_ controller: AnyFetchedResultsController, didFailWith error: FetchedResultsError) {
        failures.append(error)
    }
}

/// A snapshot delegate that keeps every snapshot.
public final class SnapshotRecorder: FetchedResultsControllerSnapshotDelegate, @unchecked Sendable {
    /// Every snapshot, in order.
    public var snapshots: [FetchedResultsSnapshot] = []
    /// How many classic will/did callbacks arrived, which a snapshot delegate also gets.
    public var classicCalls = 0

    /// A recorder that has seen nothing yet.
    public init() {}

    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }

    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
}

/// A difference delegate that keeps every difference.
public final class DifferenceRecorder: FetchedResultsControllerDifferenceDelegate, @unchecked Sendable {
    /// Every difference, in order.
    public var differences: [CollectionDifference<ManagedObjectID>] = []
    /// How many classic will/did callbacks arrived, which a difference delegate also gets.
    public var classicCalls = 0

    /// A recorder that has seen nothing yet.
    public init() {}

    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        differences.append(difference)
    }

    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { classicCalls += 1 }
}

extension AnyFetchedResultsController {
    /// The contents as section names and object IDs, for comparisons.
    public var contents: [(name: String, ids: [ManagedObjectID])] {
        (sections ?? []).map { section in
            (section.name, (section.objects ?? []).compactMap { ($0 as? ManagedObject)?.objectID ?? ($0 as? ManagedObjectID) })
        }
    }
}
