public import Foundation

/// One change batch of a fetched results controller, as a value: what the classic delegate
/// callbacks report, in the order they are called. Apply it to a table's rows with UIKit's
/// batch-update rules (deletes at old index paths first, then inserts at new ones, moves as a
/// delete plus an insert, updates as reloads) and the rows become the controller's new contents.
///
/// Delivered by ``FetchedResultsController/changes``.
public struct FetchedResultsChanges: Sendable, Equatable {
    /// A section that appeared or disappeared.
    public struct SectionChange: Sendable, Equatable, CustomStringConvertible {
        /// ``FetchedResultsChangeType/insert`` or ``FetchedResultsChangeType/delete``.
        public let type: FetchedResultsChangeType
        /// The old index for a delete, the new index for an insert.
        public let sectionIndex: Int
        /// The section's name.
        public let name: String

        public init(type: FetchedResultsChangeType, sectionIndex: Int, name: String) {
            self.type = type
            self.sectionIndex = sectionIndex
            self.name = name
        }

        public var description: String { "section \(type) \(sectionIndex) \"\(name)\"" }
    }

    /// An object that entered, left, moved within, or changed in the results.
    public struct ObjectChange: Sendable, Equatable, CustomStringConvertible {
        /// What happened.
        public let type: FetchedResultsChangeType
        /// The object, by ID.
        public let objectID: ManagedObjectID
        /// The old index path: nil for an insert.
        public let indexPath: IndexPath?
        /// The new index path: nil for a delete, and for an update whose sort or section keys
        /// changed without moving it (Core Data's update in place).
        public let newIndexPath: IndexPath?

        public init(type: FetchedResultsChangeType, objectID: ManagedObjectID, indexPath: IndexPath?, newIndexPath: IndexPath?) {
            self.type = type
            self.objectID = objectID
            self.indexPath = indexPath
            self.newIndexPath = newIndexPath
        }

        public var description: String {
            let from = indexPath.map { "[\($0[0]),\($0[1])]" } ?? "-"
            let to = newIndexPath.map { "[\($0[0]),\($0[1])]" } ?? "-"
            return "\(type) \(from) → \(to) \(objectID)"
        }
    }

    /// Section deletes (descending old index), then section inserts (ascending new index).
    public var sectionChanges: [SectionChange]
    /// Object deletes (descending old index path), inserts (ascending new index path), moves,
    /// then updates.
    public var objectChanges: [ObjectChange]

    public init(sectionChanges: [SectionChange] = [], objectChanges: [ObjectChange] = []) {
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
    }

    /// Whether the batch has no change.
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }
}
