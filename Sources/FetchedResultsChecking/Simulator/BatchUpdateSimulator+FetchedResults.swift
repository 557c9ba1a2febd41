import Foundation
public import OpenCoreData

// The fetched results controller's three outputs checked against a list: change batches (through
// the two consumer mappings of FRC-SPEC UIK-04), snapshots (SNP-02, SNP-03) and collection
// differences (SNP-06).

/// How a table's delegate turns a controller's change batch into one `performBatchUpdates` call.
public enum FetchedResultsBatchMapping: Sendable, CaseIterable, CustomStringConvertible {
    /// Apple's template: `.move` → `moveRow`, `.update` → `reloadRows(at: [indexPath])`.
    case uikitMoves
    /// UIK-04, the recommended mapping: `.move` → delete at `indexPath` plus insert at
    /// `newIndexPath`; `.update` → nothing in the batch, the cell at `newIndexPath ?? indexPath`
    /// reconfigured after it.
    case deleteAndInsert

    public var description: String { self == .uikitMoves ? "UIKit moves" : "delete and insert" }
}

extension ListBatch {
    /// The batch a table's delegate makes of a controller's changes, after checking each change
    /// has the index paths its type calls for (CHG-01, CHG-02, CHG-08..CHG-10).
    ///
    /// - Parameters:
    ///   - allowingMovesInPlace: Whether a move to its own index path is accepted (applied as a
    ///     move). The controller reports one only when the row crossed unchanged rows and other
    ///     changes shifted it back to its index, where an update in place would be wrong; the
    ///     fuzzer checks that each such move is needed.
    ///   - item: The row item for an object ID, for example a test's label for it.
    public init(_ changes: FetchedResultsChanges, mapping: FetchedResultsBatchMapping, allowingMovesInPlace: Bool = false,
                item: (ManagedObjectID) throws -> Item) throws {
        self.init()
        for change in changes.sectionChanges {
            switch change.type {
            case .delete: deleteSection(change.sectionIndex, name: change.name)
            case .insert: insertSection(change.sectionIndex, name: change.name)
            case .move, .update:
                throw BatchUpdateError("a section change is an insert or a delete, not a \(change.type): \(change)")
            }
        }
        var reported: [ManagedObjectID: FetchedResultsChanges.ObjectChange] = [:]
        for change in changes.objectChanges {
            let value = try item(change.objectID)
            let text = changeText(change, itemText(value))
            // CHG-03: one change per object and batch; a second one would also make UIKit
            // delete or reload the same row twice.
            if let earlier = reported[change.objectID] {
                throw BatchUpdateError("\(itemText(value)) is reported twice in one batch: \(changeText(earlier, itemText(value))) and \(text)")
            }
            reported[change.objectID] = change
            switch (change.type, change.indexPath, change.newIndexPath) {
            case (.insert, nil, let to?):
                insertRow(at: to, item: value)
            case (.delete, let from?, nil):
                deleteRow(at: from, item: value)
            case (.move, let from?, let to?):
                if from == to, !allowingMovesInPlace, Self.sectionKeepsIndex(from.first, in: changes) {
                    throw BatchUpdateError("a move to the same index path is reported as an update with no newIndexPath (CHG-08): \(text)")
                }
                switch mapping {
                case .uikitMoves:
                    moveRow(at: from, to: to, item: value)
                case .deleteAndInsert:
                    deleteRow(at: from, item: value)
                    insertRow(at: to, item: value)
                }
            case (.update, let from?, let to):
                if mapping == .uikitMoves { reloadRow(at: from, item: value) }
                reconfigureRow(at: to ?? from, item: value)
            case (.insert, _, _):
                throw BatchUpdateError("an insert has a newIndexPath and no indexPath: \(text)")
            case (.delete, _, _):
                throw BatchUpdateError("a delete has an indexPath and no newIndexPath: \(text)")
            case (.move, _, _):
                throw BatchUpdateError("a move has both an indexPath and a newIndexPath: \(text)")
            case (.update, _, _):
                throw BatchUpdateError("an update has an indexPath: \(text)")
            }
        }
    }

    /// Whether an old section has the same index after the batch's section changes, so that an
    /// unchanged index path names the same place. A row that leaves a deleted section can land on
    /// the same numbers in another section: that is a real move.
    private static func sectionKeepsIndex(_ section: Int?, in changes: FetchedResultsChanges) -> Bool {
        guard let section else { return false }
        let deleted = changes.sectionChanges.filter { $0.type == .delete }.map(\.sectionIndex)
        guard !deleted.contains(section) else { return false }
        var index = section - deleted.filter { $0 < section }.count
        for inserted in changes.sectionChanges.filter({ $0.type == .insert }).map(\.sectionIndex).sorted() where inserted <= index {
            index += 1
        }
        return index == section
    }
}

extension ListBatch where Item == ManagedObjectID {
    /// The batch a table's delegate makes of a controller's changes, with object IDs as items.
    public init(_ changes: FetchedResultsChanges, mapping: FetchedResultsBatchMapping, allowingMovesInPlace: Bool = false) throws {
        try self.init(changes, mapping: mapping, allowingMovesInPlace: allowingMovesInPlace, item: { $0 })
    }
}

extension SimulatedList {
    /// Checks that a controller's change batch, mapped as a table's delegate would map it, is one
    /// UIKit accepts and turns these rows into `expected`, the rows of a fresh fetch.
    ///
    /// Also checks what UIKit would let pass but the controller must not do: every row of a
    /// deleted section is reported as deleted or moved (CHG-02, CHG-12).
    ///
    /// - Throws: ``BatchUpdateError`` whose details show the old rows, the batch, the result and
    ///   the expected rows.
    @discardableResult
    public func verifyApplying(_ changes: FetchedResultsChanges, mapping: FetchedResultsBatchMapping,
                               moveRules: MoveRules = .strict, allowingMovesInPlace: Bool = false, expected: SimulatedList<Item>,
                               item: (ManagedObjectID) throws -> Item) throws -> SimulatedList<Item> {
        func details(_ result: SimulatedList<Item>?) throws -> String {
            let batch = try changes.sectionChanges.map(\.description)
                + changes.objectChanges.map { changeText($0, itemText(try item($0.objectID))) }
            return """
                  mapping:  \(mapping), \(moveRules)
                  old:      \(self)
                  batch:    \(batch.isEmpty ? "(empty)" : batch.joined(separator: "\n            "))
                  result:   \(result.map(\.description) ?? "(rejected)")
                  expected: \(expected)
                """
        }
        do {
            let batch = try ListBatch(changes, mapping: mapping, allowingMovesInPlace: allowingMovesInPlace, item: item)
            try checkDeletedSectionsAreEmptied(by: batch)
            let result = try applying(batch, moveRules: moveRules, dataSource: expected)
            guard result == expected else {
                throw BatchUpdateError("the batch does not turn the old rows into the expected ones", details: try details(result))
            }
            return result
        } catch let error as BatchUpdateError where error.details.isEmpty {
            throw BatchUpdateError(error.message, details: try details(nil))
        }
    }

    private func checkDeletedSectionsAreEmptied(by batch: ListBatch<Item>) throws {
        let leaving = Set(batch.rowDeletions.map(\.indexPath) + batch.rowMoves.map(\.from))
        for deletion in batch.sectionDeletions where sections.indices.contains(deletion.section) {
            for (row, item) in sections[deletion.section].items.enumerated() {
                let indexPath = IndexPath(indexes: [deletion.section, row])
                guard leaving.contains(indexPath) else {
                    throw BatchUpdateError("\(itemText(item)) at \(indexPathText(indexPath)) leaves with its deleted section but is not reported as deleted or moved")
                }
            }
        }
    }
}

extension SimulatedList where Item == ManagedObjectID {
    /// `verifyApplying(_:mapping:moveRules:allowingMovesInPlace:expected:item:)` with object IDs
    /// as items.
    @discardableResult
    public func verifyApplying(_ changes: FetchedResultsChanges, mapping: FetchedResultsBatchMapping,
                               moveRules: MoveRules = .strict, allowingMovesInPlace: Bool = false,
                               expected: SimulatedList<Item>) throws -> SimulatedList<Item> {
        try verifyApplying(changes, mapping: mapping, moveRules: moveRules, allowingMovesInPlace: allowingMovesInPlace,
                           expected: expected, item: { $0 })
    }

    /// The rows of a snapshot, after the checks UIKit's diffable data source makes when it is
    /// applied. The unsectioned identifier (SNP-02) becomes the name `""`, which the controller's
    /// one section has, so the list compares with a fetch.
    public init(snapshot: FetchedResultsSnapshot) throws {
        let sectionDuplicates = duplicates(in: snapshot.sectionIdentifiers)
        guard sectionDuplicates.isEmpty else {
            throw BatchUpdateError("Fatal: supplied section identifiers are not unique. Duplicate identifiers: {\(sectionDuplicates.map(\.debugDescription).joined(separator: ", "))}")
        }
        let items = snapshot.itemsBySection.flatMap { $0 }
        let itemDuplicates = duplicates(in: items)
        guard itemDuplicates.isEmpty else {
            throw BatchUpdateError("Fatal: supplied item identifiers are not unique. Duplicate identifiers: {\(itemDuplicates.map(itemText).joined(separator: ", "))}")
        }
        let present = Set(items)
        if let missing = snapshot.reloadedItemIdentifiers.first(where: { !present.contains($0) }) {
            throw BatchUpdateError("Attempted to reload item identifier that does not exist in the snapshot: \(itemText(missing))")
        }
        let names = snapshot.sectionIdentifiers.map { $0 == FetchedResultsSnapshot.unsectionedIdentifier ? "" : $0 }
        self.init(sections: zip(names, snapshot.itemsBySection).map { Section($0, $1) })
    }
}

extension Array where Element: Hashable {
    /// `applying(_:)`, after checking what it does not: that each removal names the element at
    /// its offset, and that each associated remove and insert carry the same element.
    public func applyingChecked(_ difference: CollectionDifference<Element>) throws -> [Element] {
        var insertions: [Int: (element: Element, associatedWith: Int?)] = [:]
        for case .insert(let offset, let element, let associatedWith) in difference {
            insertions[offset] = (element, associatedWith)
        }
        for case .remove(let offset, let element, let associatedWith) in difference {
            guard indices.contains(offset) else {
                throw BatchUpdateError("remove at offset \(offset) is out of range: the old array has \(count) elements")
            }
            guard self[offset] == element else {
                throw BatchUpdateError("remove at offset \(offset) names \(itemText(element)), but the old array holds \(itemText(self[offset])) there")
            }
            guard let newOffset = associatedWith else { continue }
            guard let insertion = insertions[newOffset], insertion.associatedWith == offset, insertion.element == element else {
                let other = insertions[newOffset].map { itemText($0.element) } ?? "nothing"
                throw BatchUpdateError("remove of \(itemText(element)) at offset \(offset) is paired with the insert at offset \(newOffset), which inserts \(other)")
            }
        }
        guard let result = applying(difference) else {
            throw BatchUpdateError("the difference does not apply to an array of \(count) elements (Array.applying returned nil)")
        }
        return result
    }
}

/// Elements that occur more than once, in order of their second occurrence.
private func duplicates<Element: Hashable>(in elements: [Element]) -> [Element] {
    var seen = Set<Element>()
    var repeated: [Element] = []
    for element in elements where !seen.insert(element).inserted && !repeated.contains(element) {
        repeated.append(element)
    }
    return repeated
}

/// A change with a short item label; unlike the change's own description, safe for malformed
/// index paths.
private func changeText(_ change: FetchedResultsChanges.ObjectChange, _ item: String) -> String {
    let from = change.indexPath.map(indexPathText) ?? "-"
    let to = change.newIndexPath.map(indexPathText) ?? "-"
    return "\(change.type) \(from) → \(to) \(item)"
}
