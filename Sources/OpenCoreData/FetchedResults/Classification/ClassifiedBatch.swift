/// What one change batch does to a fetched results controller's contents, by row key: the changes
/// to report and the layout to move to. Made by ``ChangeClassifier``.
package struct ClassifiedBatch: Equatable, Sendable {
    /// A row's place: section and row within it.
    package struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
        package var section: Int
        package var row: Int

        package init(section: Int, row: Int) {
            self.section = section
            self.row = row
        }

        package static func < (lhs: RowPath, rhs: RowPath) -> Bool {
            (lhs.section, lhs.row) < (rhs.section, rhs.row)
        }

        package var description: String { "[\(section),\(row)]" }
    }

    package struct SectionChange: Equatable, Sendable {
        package var type: FetchedResultsChangeType
        /// The old index of a deleted section, the new index of an inserted one.
        package var index: Int
        package var name: String

        package init(type: FetchedResultsChangeType, index: Int, name: String) {
            self.type = type
            self.index = index
            self.name = name
        }
    }

    package struct RowChange: Equatable, Sendable {
        package var type: FetchedResultsChangeType
        /// The row's key in the old results (nil for an insert).
        package var oldRowKey: Int64?
        /// The row's key in the new results (nil for a delete); differs from the old key when the
        /// object's ID changed.
        package var newRowKey: Int64?
        package var from: RowPath?
        package var to: RowPath?
    }

    /// A section of the new layout.
    package struct LayoutSection: Equatable, Sendable {
        package var name: String
        package var count: Int
        /// Its index in the old layout, or nil for a new section.
        package var oldIndex: Int?

        package init(name: String, count: Int, oldIndex: Int?) {
            self.name = name
            self.count = count
            self.oldIndex = oldIndex
        }
    }

    /// A row whose section name did not fit where its sort keys put it: it was shown in the
    /// section found there instead (the data breaks Core Data's rule that objects are sorted by
    /// section name, error 134060).
    package struct OutOfOrderRow: Equatable, Sendable {
        package var rowKey: Int64
        package var sectionName: String
        package var shownInSection: String

        package init(rowKey: Int64, sectionName: String, shownInSection: String) {
            self.rowKey = rowKey
            self.sectionName = sectionName
            self.shownInSection = shownInSection
        }
    }

    /// Section deletes (descending old index), then inserts (ascending new index).
    package var sectionChanges: [SectionChange] = []
    /// What the classic delegate hears: deletes (descending old path), inserts (ascending new
    /// path), moves (ascending new path), updates (ascending old path).
    package var rowChanges: [RowChange] = []
    /// Rows whose object ID changed and nothing else (temporary to permanent): only consumers that
    /// identify rows by ID hear about them.
    package var identifierChanges: [RowChange] = []
    /// The sections after the batch.
    package var layout: [LayoutSection] = []
    /// Old positions (across sections) of the rows taken out, ascending.
    package var removedPositions: [Int] = []
    /// New positions (across sections) and keys of the rows put in, ascending.
    package var insertions: [(position: Int, rowKey: Int64)] = []
    package var outOfOrderRows: [OutOfOrderRow] = []

    /// Whether a consumer that identifies rows by ID has anything to hear.
    package var isEmpty: Bool { sectionChanges.isEmpty && rowChanges.isEmpty && identifierChanges.isEmpty }

    package static func == (lhs: ClassifiedBatch, rhs: ClassifiedBatch) -> Bool {
        lhs.sectionChanges == rhs.sectionChanges && lhs.rowChanges == rhs.rowChanges
            && lhs.identifierChanges == rhs.identifierChanges && lhs.layout == rhs.layout
            && lhs.removedPositions == rhs.removedPositions && lhs.outOfOrderRows == rhs.outOfOrderRows
            && lhs.insertions.map(\.position) == rhs.insertions.map(\.position)
            && lhs.insertions.map(\.rowKey) == rhs.insertions.map(\.rowKey)
    }
}
