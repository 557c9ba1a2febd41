import Foundation

// UIKit's batch-update rules (FRC-SPEC UIK-01..UIK-03), applied to a SimulatedList.

extension SimulatedList {
    /// The rows after `batch`, applied as UITableView applies a `performBatchUpdates` call.
    ///
    /// Deletes, reloads and move sources name pre-update index paths; inserts and move
    /// destinations name post-update ones. All deletes happen before all inserts, whatever order
    /// the calls were made in, and rows are inserted in ascending index-path order into what the
    /// deletes left, so each inserted row ends at its index path. Reloaded rows stay where they
    /// are relative to the rows around them.
    ///
    /// Row deletes inside a deleted section are accepted and have no further effect, as UIKit
    /// tolerates them. Row inserts inside an inserted section are accepted too and are what fills
    /// it: UIKit would read a new section's rows from its data source, but a simulator has only the
    /// batch, so a new section that the batch does not fill stays empty and fails the comparison
    /// with a fresh fetch.
    ///
    /// - Parameter dataSource: The data source's rows after the update. When given, its counts
    ///   are checked against the batch the way UIKit checks them (UIK-02) and used in the "after
    ///   the update" messages; the returned rows are still the batch's doing.
    public func applying(_ batch: ListBatch<Item>, moveRules: MoveRules = .strict,
                         dataSource: SimulatedList<Item>? = nil) throws -> SimulatedList<Item> {
        var update = BatchApplication(old: self, batch: batch, moveRules: moveRules, dataSource: dataSource)
        return try update.run()
    }
}

/// The state of one `applying(_:)` call: the old frame first, then the new frame, then the counts
/// and the rows, so the first broken rule is the one reported.
private struct BatchApplication<Item: Hashable> {
    private enum OldClaim { case delete, reload, move }
    private enum NewClaim { case insert, move }

    /// Where a section of the new list comes from.
    private enum SectionOrigin {
        case existing(oldIndex: Int)
        case inserted(name: String)
    }

    /// A row entering a new section: an insert, or a move's destination.
    private struct Addition {
        var row: Int
        var item: Item
        var move: ListBatch<Item>.RowMove?
    }

    let old: SimulatedList<Item>
    let batch: ListBatch<Item>
    let moveRules: MoveRules
    let dataSource: SimulatedList<Item>?

    private var deletedSections = Set<Int>()
    private var oldClaims: [IndexPath: OldClaim] = [:]
    private var newClaims: [IndexPath: NewClaim] = [:]
    /// Rows leaving each surviving old section: deletes and move sources, not reloads.
    private var departures: [Int: Set<Int>] = [:]
    private var deletedCount: [Int: Int] = [:]
    private var origins: [SectionOrigin] = []
    private var newIndexOfOldSection: [Int: Int] = [:]
    private var additions: [Int: [Addition]] = [:]
    private var insertedCount: [Int: Int] = [:]
    private var movedIn: [Int: Int] = [:]
    private var movedOut: [Int: Int] = [:]

    init(old: SimulatedList<Item>, batch: ListBatch<Item>, moveRules: MoveRules, dataSource: SimulatedList<Item>?) {
        self.old = old
        self.batch = batch
        self.moveRules = moveRules
        self.dataSource = dataSource
    }

    mutating func run() throws -> SimulatedList<Item> {
        try deleteSections()
        try deleteRows()
        try reloadRows()
        try takeMoveSources()
        try insertSections()
        try insertRows()
        try placeMoveDestinations()
        try checkRowRanges()
        try checkRowCounts()
        let result = try build()
        try checkReconfigurations(in: result)
        return result
    }

    // MARK: Old frame

    private mutating func deleteSections() throws {
        let count = old.sections.count
        for deletion in batch.sectionDeletions {
            let section = deletion.section
            guard old.sections.indices.contains(section) else {
                throw BatchUpdateError("attempt to delete section \(section), but there are only \(count) sections before the update")
            }
            guard deletedSections.insert(section).inserted else {
                throw BatchUpdateError("attempt to delete section \(section) twice")
            }
            let actual = old.sections[section].name
            if let name = deletion.name, name != actual {
                throw BatchUpdateError("attempt to delete section \(section) \(name.debugDescription), which is \(actual.debugDescription) before the update")
            }
        }
    }

    private mutating func deleteRows() throws {
        for deletion in batch.rowDeletions {
            let (section, row) = try oldPosition(deletion.indexPath, action: "delete", item: deletion.item)
            try claimOld(deletion.indexPath, .delete)
            // A row of a deleted section goes with its section; deleting it too is tolerated.
            guard !deletedSections.contains(section) else { continue }
            departures[section, default: []].insert(row)
            deletedCount[section, default: 0] += 1
        }
    }

    private mutating func reloadRows() throws {
        for reload in batch.rowReloads {
            let (section, row) = try oldPosition(reload.indexPath, action: "reload", item: reload.item)
            try claimOld(reload.indexPath, .reload)
            // A reload is a delete plus an insert where the row lands; in a deleted section it
            // lands nowhere, and a controller never asks for it.
            guard !deletedSections.contains(section) else {
                throw BatchUpdateError("attempt to reload row \(row) in section \(section), which is being deleted")
            }
        }
    }

    private mutating func takeMoveSources() throws {
        for move in batch.rowMoves {
            let (section, row) = try oldPosition(move.from, action: "move", item: move.item)
            try claimOld(move.from, .move)
            if deletedSections.contains(section) {
                if moveRules == .strict {
                    throw BatchUpdateError("cannot move an item from a deleted section (\(section))")
                }
            } else {
                departures[section, default: []].insert(row)
            }
        }
    }

    /// The checked `(section, row)` of an old-frame index path.
    private func oldPosition(_ indexPath: IndexPath, action: String, item: Item?) throws -> (Int, Int) {
        guard indexPath.count == 2 else {
            throw BatchUpdateError("malformed index path \(indexPathText(indexPath)) to \(action): a row index path has a section and a row")
        }
        let (section, row) = (indexPath[0], indexPath[1])
        guard old.sections.indices.contains(section) else {
            throw BatchUpdateError("attempt to \(action) row \(row) from section \(section), but there are only \(old.sections.count) sections before the update")
        }
        let items = old.sections[section].items
        guard items.indices.contains(row) else {
            throw BatchUpdateError("attempt to \(action) row \(row) from section \(section) which only contains \(items.count) rows before the update")
        }
        if let item, item != items[row] {
            throw BatchUpdateError("attempt to \(action) \(itemText(item)) at \(indexPathText(indexPath)), which holds \(itemText(items[row])) before the update")
        }
        return (section, row)
    }

    private mutating func claimOld(_ indexPath: IndexPath, _ claim: OldClaim) throws {
        guard let earlier = oldClaims[indexPath] else {
            oldClaims[indexPath] = claim
            return
        }
        let path = "(\(indexPathText(indexPath)))"
        switch (earlier, claim) {
        case (.delete, .delete):
            throw BatchUpdateError("attempt to delete the same index path twice \(path)")
        case (.delete, .reload), (.reload, .delete):
            throw BatchUpdateError("attempt to delete and reload the same index path \(path)")
        case (.delete, .move), (.move, .delete), (.reload, .move), (.move, .reload):
            // UIKit gives this message for a reload and a move too, as a reload is a delete
            // plus an insert (radar 33662307).
            throw BatchUpdateError("attempt to perform a delete and a move from the same index path \(path)")
        case (.reload, .reload):
            throw BatchUpdateError("attempt to reload the same index path twice \(path)")
        case (.move, .move):
            throw BatchUpdateError("attempt to move the same index path twice \(path)")
        }
    }

    // MARK: New frame

    private mutating func insertSections() throws {
        let newCount = old.sections.count - deletedSections.count + batch.sectionInsertions.count
        let afterCount = dataSource?.sections.count ?? newCount
        var inserted = Set<Int>()
        for insertion in batch.sectionInsertions {
            let section = insertion.section
            guard inserted.insert(section).inserted else {
                throw BatchUpdateError("attempt to insert section \(section) twice")
            }
            guard section >= 0, section < afterCount else {
                throw BatchUpdateError("attempt to insert section \(section) but there are only \(afterCount) sections after the update")
            }
        }
        if afterCount != newCount {
            throw BatchUpdateError("""
                Invalid update: invalid number of sections. The number of sections contained in the table view \
                after the update (\(afterCount)) must be equal to the number of sections contained in the table \
                view before the update (\(old.sections.count)), plus or minus the number of sections inserted or \
                deleted (\(batch.sectionInsertions.count) inserted, \(deletedSections.count) deleted).
                """)
        }
        origins = old.sections.indices.filter { !deletedSections.contains($0) }.map { .existing(oldIndex: $0) }
        // Ascending, into the survivors: distinct indices below the final count always fit.
        for insertion in batch.sectionInsertions.sorted(by: { $0.section < $1.section }) {
            guard insertion.section <= origins.count else {
                throw BatchUpdateError("attempt to insert section \(insertion.section) but there are only \(origins.count) sections after the update")
            }
            origins.insert(.inserted(name: insertion.name), at: insertion.section)
        }
        for (newIndex, origin) in origins.enumerated() {
            if case .existing(let oldIndex) = origin { newIndexOfOldSection[oldIndex] = newIndex }
        }
    }

    private mutating func insertRows() throws {
        for insertion in batch.rowInsertions {
            let indexPath = insertion.indexPath
            guard indexPath.count == 2 else {
                throw BatchUpdateError("malformed index path \(indexPathText(indexPath)) to insert: a row index path has a section and a row")
            }
            let (section, row) = (indexPath[0], indexPath[1])
            guard origins.indices.contains(section) else {
                throw BatchUpdateError("attempt to insert row \(row) into section \(section), but there are only \(origins.count) sections after the update")
            }
            try claimNew(indexPath, .insert)
            additions[section, default: []].append(Addition(row: row, item: insertion.item, move: nil))
            insertedCount[section, default: 0] += 1
        }
    }

    private mutating func placeMoveDestinations() throws {
        for move in batch.rowMoves {
            let indexPath = move.to
            let path = "move index path (\(indexPathText(move.from))) to index path (\(indexPathText(indexPath)))"
            guard indexPath.count == 2 else {
                throw BatchUpdateError("attempt to \(path): malformed destination, a row index path has a section and a row")
            }
            let (section, row) = (indexPath[0], indexPath[1])
            guard origins.indices.contains(section) else {
                throw BatchUpdateError("attempt to \(path), but there are only \(origins.count) sections after the update")
            }
            try claimNew(indexPath, .move)
            if case .inserted = origins[section], moveRules == .strict {
                throw BatchUpdateError("cannot move a row into a newly inserted section (\(section))")
            }
            // takeMoveSources checked the source, so the lookup only fails for a malformed path.
            guard let item = old[move.from] else {
                throw BatchUpdateError("attempt to \(path): no row at the source before the update")
            }
            additions[section, default: []].append(Addition(row: row, item: item, move: move))
            let sourceSection = move.from[0]
            if newIndexOfOldSection[sourceSection] != section {
                movedIn[section, default: 0] += 1
                if newIndexOfOldSection[sourceSection] != nil { movedOut[sourceSection, default: 0] += 1 }
            }
        }
    }

    private mutating func claimNew(_ indexPath: IndexPath, _ claim: NewClaim) throws {
        guard let earlier = newClaims[indexPath] else {
            newClaims[indexPath] = claim
            return
        }
        let path = "(\(indexPathText(indexPath)))"
        switch (earlier, claim) {
        case (.insert, .insert):
            throw BatchUpdateError("attempt to insert the same index path twice \(path)")
        case (.insert, .move), (.move, .insert):
            throw BatchUpdateError("attempt to perform an insert and a move to the same index path \(path)")
        case (.move, .move):
            throw BatchUpdateError("attempt to perform two moves to the same index path \(path)")
        }
    }

    /// The rows the batch itself leaves in a new section.
    private func computedRowCount(_ section: Int) -> Int {
        let added = additions[section]?.count ?? 0
        guard case .existing(let oldIndex) = origins[section] else { return added }
        return old.sections[oldIndex].items.count - (departures[oldIndex]?.count ?? 0) + added
    }

    /// UIKit's "after the update" count: the data source's when there is one.
    private func rowCountAfter(_ section: Int) -> Int {
        guard let dataSource, dataSource.sections.indices.contains(section) else { return computedRowCount(section) }
        return dataSource.sections[section].items.count
    }

    private func checkRowRanges() throws {
        for section in origins.indices {
            let count = rowCountAfter(section)
            for addition in additions[section] ?? [] where addition.row < 0 || addition.row >= count {
                throw outOfRange(addition, section: section, count: count)
            }
        }
    }

    private func outOfRange(_ addition: Addition, section: Int, count: Int) -> BatchUpdateError {
        if let move = addition.move {
            return BatchUpdateError("attempt to move index path (\(indexPathText(move.from))) to index path (\(indexPathText(move.to))), but there are only \(count) rows in section \(section) after the update")
        }
        return BatchUpdateError("attempt to insert row \(addition.row) into section \(section), but there are only \(count) rows in section \(section) after the update")
    }

    /// UIK-02, for sections that exist before and after; new sections take their rows from the
    /// data source in UIKit, so it does not count them.
    private func checkRowCounts() throws {
        guard dataSource != nil else { return }
        for (section, origin) in origins.enumerated() {
            guard case .existing(let oldIndex) = origin else { continue }
            let after = rowCountAfter(section)
            let before = old.sections[oldIndex].items.count
            let inserted = insertedCount[section] ?? 0
            let deleted = deletedCount[oldIndex] ?? 0
            let inCount = movedIn[section] ?? 0
            let outCount = movedOut[oldIndex] ?? 0
            guard after != before + inserted - deleted + inCount - outCount else { continue }
            throw BatchUpdateError("""
                Invalid update: invalid number of rows in section \(section). The number of rows contained in an \
                existing section after the update (\(after)) must be equal to the number of rows contained in that \
                section before the update (\(before)), plus or minus the number of rows inserted or deleted from that \
                section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or \
                out of that section (\(inCount) moved in, \(outCount) moved out).
                """)
        }
    }

    private func build() throws -> SimulatedList<Item> {
        var sections: [SimulatedList<Item>.Section] = []
        for (section, origin) in origins.enumerated() {
            var result: SimulatedList<Item>.Section
            switch origin {
            case .existing(let oldIndex):
                let source = old.sections[oldIndex]
                let leaving = departures[oldIndex] ?? []
                let kept = source.items.indices.filter { !leaving.contains($0) }.map { source.items[$0] }
                result = .init(source.name, kept)
            case .inserted(let name):
                result = .init(name, [])
            }
            // Ascending, so each row lands at its own index path; a gap means the rows after the
            // update are fewer than the data source claimed.
            for addition in (additions[section] ?? []).sorted(by: { $0.row < $1.row }) {
                guard addition.row <= result.items.count else {
                    throw outOfRange(addition, section: section, count: computedRowCount(section))
                }
                result.items.insert(addition.item, at: addition.row)
            }
            sections.append(result)
        }
        return SimulatedList(sections: sections)
    }

    private func checkReconfigurations(in result: SimulatedList<Item>) throws {
        for reconfiguration in batch.rowReconfigurations {
            let indexPath = reconfiguration.indexPath
            guard indexPath.count == 2 else {
                throw BatchUpdateError("malformed index path \(indexPathText(indexPath)) to reconfigure: a row index path has a section and a row")
            }
            let (section, row) = (indexPath[0], indexPath[1])
            guard result.sections.indices.contains(section) else {
                throw BatchUpdateError("attempt to reconfigure row \(row) in section \(section), but there are only \(result.sections.count) sections after the update")
            }
            let items = result.sections[section].items
            guard items.indices.contains(row) else {
                throw BatchUpdateError("attempt to reconfigure row \(row) in section \(section), but there are only \(items.count) rows in section \(section) after the update")
            }
            guard items[row] == reconfiguration.item else {
                throw BatchUpdateError("attempt to reconfigure \(itemText(reconfiguration.item)) at \(indexPathText(indexPath)), which holds \(itemText(items[row])) after the update")
            }
        }
    }
}
