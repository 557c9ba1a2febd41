public import Foundation
import OpenCoreData

// A model of a table view's rows and of one `performBatchUpdates` call, so the tests and the
// fuzzer can check a fetched results controller's change batches the way UIKit would (FRC-SPEC
// section 12) without UIKit. The types are here; the update rules are in
// BatchUpdateSimulator+Apply.swift, and the mapping from controller batches, snapshots and
// differences in BatchUpdateSimulator+FetchedResults.swift.

/// Sections of rows, as a table view's data source holds them.
public struct SimulatedList<Item: Hashable>: Equatable, CustomStringConvertible {
    /// One section: its name, as the controller names it, and its rows in order.
    public struct Section: Equatable {
        public var name: String
        public var items: [Item]

        /// A section of these rows.
        public init(_ name: String, _ items: [Item]) {
            self.name = name
            self.items = items
        }
    }

    /// The sections in order.
    public var sections: [Section]

    /// A list of these sections; no sections by default.
    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// A list from `(name, items)` pairs, which read like the spec's examples.
    public init(_ sections: [(name: String, items: [Item])]) {
        self.sections = sections.map { Section($0.name, $0.items) }
    }

    /// One section, as an unsectioned controller has.
    public init(items: [Item], name: String = "") {
        sections = [Section(name, items)]
    }

    /// The item at a row index path, or nil when there is no such row.
    public subscript(indexPath: IndexPath) -> Item? {
        guard indexPath.count == 2, sections.indices.contains(indexPath[0]) else { return nil }
        let items = sections[indexPath[0]].items
        return items.indices.contains(indexPath[1]) ? items[indexPath[1]] : nil
    }

    /// The same rows with their items replaced, for example object IDs by readable labels.
    public func map<Other: Hashable>(_ transform: (Item) throws -> Other) rethrows -> SimulatedList<Other> {
        SimulatedList<Other>(sections: try sections.map { .init($0.name, try $0.items.map(transform)) })
    }

    /// `"Fruit"[A, B] "Veg"[]`: short enough to read in a failed expectation.
    public var description: String {
        guard !sections.isEmpty else { return "(no sections)" }
        return sections.map { section in
            "\(section.name.debugDescription)[\(section.items.map(itemText).joined(separator: ", "))]"
        }.joined(separator: " ")
    }
}

extension SimulatedList: Sendable where Item: Sendable {}
extension SimulatedList.Section: Sendable where Item: Sendable {}

/// What UITableView does with a move whose source section is being deleted or whose destination
/// section is being inserted.
public enum MoveRules: Sendable, CustomStringConvertible {
    /// Raise, as UITableView does ("cannot move an item from a deleted section"): the reason
    /// consumers map a controller's moves to a delete plus an insert (CHG-12, UIK-04).
    case strict
    /// Treat such a move as a delete plus an insert, to check everything else about a batch that
    /// uses moves.
    case lenient

    public var description: String { self == .strict ? "strict moves" : "lenient moves" }
}

/// One `performBatchUpdates` call: deletes, reloads and move sources in the old frame; inserts,
/// move destinations and reconfigurations in the new frame.
///
/// The order of the calls does not matter, as in UIKit. Items are carried so that a wrong index
/// path is caught even when the counts work out: a delete, move or reload naming an item must
/// find that item at its old index path.
public struct ListBatch<Item: Hashable>: CustomStringConvertible {
    /// `deleteSections`, in the old frame.
    public struct SectionDeletion {
        public var section: Int
        /// When set, the old section must have this name.
        public var name: String?
    }

    /// `insertSections`, in the new frame.
    public struct SectionInsertion {
        public var section: Int
        public var name: String
    }

    /// `deleteRows`, in the old frame; the item, when given, must be the row's.
    public struct RowDeletion {
        public var indexPath: IndexPath
        public var item: Item?
    }

    /// `insertRows`, in the new frame.
    public struct RowInsertion {
        public var indexPath: IndexPath
        public var item: Item
    }

    /// `moveRow`, from the old frame to the new one.
    public struct RowMove {
        public var from: IndexPath
        public var to: IndexPath
        public var item: Item?
    }

    /// `reloadRows`, in the old frame.
    public struct RowReload {
        public var indexPath: IndexPath
        public var item: Item?
    }

    /// A cell reconfigured after the batch (UIK-04's handling of `.update`), in the new frame:
    /// the item must be at that index path once the batch is applied.
    public struct RowReconfiguration {
        public var indexPath: IndexPath
        public var item: Item
    }

    public var sectionDeletions: [SectionDeletion] = []
    public var sectionInsertions: [SectionInsertion] = []
    public var rowDeletions: [RowDeletion] = []
    public var rowInsertions: [RowInsertion] = []
    public var rowMoves: [RowMove] = []
    public var rowReloads: [RowReload] = []
    public var rowReconfigurations: [RowReconfiguration] = []

    /// An empty batch, to fill with the calls below.
    public init() {}

    /// Deletes an old section; with a name, checks the section has it.
    public mutating func deleteSection(_ section: Int, name: String? = nil) {
        sectionDeletions.append(SectionDeletion(section: section, name: name))
    }

    /// Inserts a named, empty section at its new index.
    public mutating func insertSection(_ section: Int, name: String) {
        sectionInsertions.append(SectionInsertion(section: section, name: name))
    }

    /// Deletes the row at an old index path.
    public mutating func deleteRow(at indexPath: IndexPath, item: Item? = nil) {
        rowDeletions.append(RowDeletion(indexPath: indexPath, item: item))
    }

    /// Inserts an item at a new index path.
    public mutating func insertRow(at indexPath: IndexPath, item: Item) {
        rowInsertions.append(RowInsertion(indexPath: indexPath, item: item))
    }

    /// Moves the row at an old index path to a new one.
    public mutating func moveRow(at from: IndexPath, to: IndexPath, item: Item? = nil) {
        rowMoves.append(RowMove(from: from, to: to, item: item))
    }

    /// Reloads the row at an old index path, which keeps its place.
    public mutating func reloadRow(at indexPath: IndexPath, item: Item? = nil) {
        rowReloads.append(RowReload(indexPath: indexPath, item: item))
    }

    /// Reconfigures a cell after the batch: the item must be at the new index path.
    public mutating func reconfigureRow(at indexPath: IndexPath, item: Item) {
        rowReconfigurations.append(RowReconfiguration(indexPath: indexPath, item: item))
    }

    /// Whether the batch makes no call at all.
    public var isEmpty: Bool {
        sectionDeletions.isEmpty && sectionInsertions.isEmpty && rowDeletions.isEmpty && rowInsertions.isEmpty
            && rowMoves.isEmpty && rowReloads.isEmpty && rowReconfigurations.isEmpty
    }

    /// One call per line, grouped by kind.
    public var description: String {
        func named(_ item: Item?) -> String { item.map { " " + itemText($0) } ?? "" }
        let lines = sectionDeletions.map { "delete section \($0.section)\($0.name.map { " " + $0.debugDescription } ?? "")" }
            + sectionInsertions.map { "insert section \($0.section) \($0.name.debugDescription)" }
            + rowDeletions.map { "delete row \(indexPathText($0.indexPath))\(named($0.item))" }
            + rowInsertions.map { "insert row \(indexPathText($0.indexPath)) \(itemText($0.item))" }
            + rowMoves.map { "move row \(indexPathText($0.from)) → \(indexPathText($0.to))\(named($0.item))" }
            + rowReloads.map { "reload row \(indexPathText($0.indexPath))\(named($0.item))" }
            + rowReconfigurations.map { "then reconfigure row \(indexPathText($0.indexPath)) \(itemText($0.item))" }
        return lines.isEmpty ? "(empty batch)" : lines.joined(separator: "\n")
    }
}

extension ListBatch: Sendable where Item: Sendable {}
extension ListBatch.SectionDeletion: Sendable where Item: Sendable {}
extension ListBatch.SectionInsertion: Sendable where Item: Sendable {}
extension ListBatch.RowDeletion: Sendable where Item: Sendable {}
extension ListBatch.RowInsertion: Sendable where Item: Sendable {}
extension ListBatch.RowMove: Sendable where Item: Sendable {}
extension ListBatch.RowReload: Sendable where Item: Sendable {}
extension ListBatch.RowReconfiguration: Sendable where Item: Sendable {}

/// A batch UIKit would reject, or one that does not produce the expected rows.
public struct BatchUpdateError: Error, CustomStringConvertible, Equatable {
    /// The rule that was broken, in UIKit's words where UIKit has them.
    public let message: String
    /// The lists and the batch involved, when a caller added them.
    public var details: String = ""

    /// An error for a broken rule, with the lists and batch involved when known.
    public init(_ message: String, details: String = "") {
        self.message = message
        self.details = details
    }

    public var description: String { details.isEmpty ? message : message + "\n" + details }
}

/// `[section,row]`, as ``FetchedResultsChanges/ObjectChange`` prints index paths, but safe for
/// index paths of any length.
public func indexPathText(_ indexPath: IndexPath) -> String {
    "[" + indexPath.map(String.init).joined(separator: ",") + "]"
}

/// An item for a message. Object IDs are shortened to `Entity/t12` or `Entity/p42`: their URIs
/// would drown the lists they appear in.
public func itemText(_ item: some Hashable) -> String {
    guard let id = item as? ManagedObjectID else { return String(describing: item) }
    let last = id.uriRepresentation().lastPathComponent
    // A temporary ID's last component is `t<process UUID>-<serial>`; the serial is enough here.
    let short = id.isTemporaryID ? "t" + (last.split(separator: "-").last.map(String.init) ?? last) : last
    return "\(id.entity.name ?? "?")/\(short)"
}
