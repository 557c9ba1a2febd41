/// The pure part of change processing: given the old layout, the rows a batch takes out and the
/// rows it puts in (already ordered, each with the number of kept rows before it), it decides the
/// new layout and what to report: inserts, deletes, moves, updates, and section inserts and
/// deletes, following Core Data's rules (moves lowered to updates, moves to the same index path
/// reported as updates, sections identified by name). It does no I/O and never reads sort keys.
///
/// Positions are counted across sections, in order. A kept row is an old row the batch does not
/// take out; kept rows keep their order, so a placement is fully positioned by its gap (how many
/// kept rows precede it) and its place among the placements of the same gap.
package struct ChangeClassifier: Sendable {
    package struct OldSection: Equatable, Sendable {
        package var name: String
        package var count: Int

        package init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// An old row the batch takes out: deleted, or to be placed again.
    package struct Removal: Equatable, Sendable {
        package var rowKey: Int64
        package var position: Int

        package init(rowKey: Int64, position: Int) {
            self.rowKey = rowKey
            self.position = position
        }
    }

    /// A row of the new results that the batch places: new, or placed again.
    package struct Placement: Equatable, Sendable {
        package var rowKey: Int64
        /// The row's key among the old rows when its object ID changed (temporary to permanent).
        package var previousRowKey: Int64?
        /// How many kept rows come before it.
        package var gap: Int
        package var sectionName: String
        /// Whether its sort or section keys changed, or may have (refreshed objects).
        package var keysChanged: Bool
        /// Whether the classic delegate hears an update when the row stays in place: false when
        /// only its object ID changed.
        package var reportsUpdate: Bool

        package init(rowKey: Int64, previousRowKey: Int64? = nil, gap: Int, sectionName: String,
                     keysChanged: Bool, reportsUpdate: Bool = true) {
            self.rowKey = rowKey
            self.previousRowKey = previousRowKey
            self.gap = gap
            self.sectionName = sectionName
            self.keysChanged = keysChanged
            self.reportsUpdate = reportsUpdate
        }
    }

    package var oldSections: [OldSection]
    /// Whether sections come from a key path; an unsectioned layout keeps its one section even
    /// when it is empty.
    package var isSectioned: Bool

    package init(oldSections: [OldSection], isSectioned: Bool) {
        self.oldSections = oldSections
        self.isSectioned = isSectioned
    }

    /// Classifies one batch.
    ///
    /// - Parameters:
    ///   - removals: Old rows taken out, in any order, each once.
    ///   - placements: New rows in their new order (by gap, then by sort order within a gap).
    package func classify(removals: [Removal], placements: [Placement]) -> ClassifiedBatch {
        let old = OldLayout(sections: oldSections, removals: removals)
        var assignment = SectionAssignment(old: old, isSectioned: isSectioned)
        for placement in placements { assignment.assign(placement) }
        let layout = assignment.layout()

        var batch = ClassifiedBatch()
        batch.layout = layout.sections
        batch.removedPositions = old.removedPositions
        batch.outOfOrderRows = assignment.outOfOrderRows
        batch.insertions = placements.enumerated().map { (position: $0.element.gap + $0.offset, rowKey: $0.element.rowKey) }
        batch.sectionChanges = sectionChanges(old: old, layout: layout)

        var stayers: [Int64: Int] = [:]   // old row key → placement index
        for (index, placement) in placements.enumerated() {
            stayers[placement.previousRowKey ?? placement.rowKey] = index
        }
        var newPaths: [ClassifiedBatch.RowPath] = []
        newPaths.reserveCapacity(placements.count)
        for (index, placement) in placements.enumerated() {
            newPaths.append(layout.path(ofPosition: placement.gap + index, inSection: assignment.sectionOfPlacement[index]))
        }

        var deletes: [ClassifiedBatch.RowChange] = []
        var lowering: [Int: [(placement: Int, removal: Removal)]] = [:]
        var moves: [ClassifiedBatch.RowChange] = []
        var updates: [ClassifiedBatch.RowChange] = []
        var matched = Set<Int>()
        for removal in old.removals {
            let from = old.path(ofPosition: removal.position)
            guard let index = stayers[removal.rowKey] else {
                deletes.append(.init(type: .delete, oldRowKey: removal.rowKey, newRowKey: nil, from: from, to: nil))
                continue
            }
            matched.insert(index)
            let placement = placements[index]
            let staysInSection = layout.sections[layout.index(of: assignment.sectionOfPlacement[index])].oldIndex == from.section
            if staysInSection, old.keptRowsBefore(removal.position) == placement.gap {
                lowering[placement.gap, default: []].append((index, removal))
            } else {
                moves.append(.init(type: .move, oldRowKey: removal.rowKey, newRowKey: placement.rowKey, from: from, to: newPaths[index]))
            }
        }
        for group in lowering.values {
            let ordered = group.sorted { $0.placement < $1.placement }
            let unmoved = MoveLowering.unmovedRows(ordered.map { entry in
                MoveLowering.Candidate(oldPosition: entry.removal.position,
                                       keysUnchanged: !placements[entry.placement].keysChanged,
                                       keepsIndexPath: old.path(ofPosition: entry.removal.position) == newPaths[entry.placement])
            })
            for (offset, entry) in ordered.enumerated() {
                let placement = placements[entry.placement]
                let from = old.path(ofPosition: entry.removal.position)
                let to = newPaths[entry.placement]
                guard unmoved.contains(offset) else {
                    moves.append(.init(type: .move, oldRowKey: entry.removal.rowKey, newRowKey: placement.rowKey, from: from, to: to))
                    continue
                }
                let change = ClassifiedBatch.RowChange(type: .update, oldRowKey: entry.removal.rowKey, newRowKey: placement.rowKey,
                                                       from: from, to: from == to && placement.keysChanged ? nil : to)
                if placement.reportsUpdate {
                    updates.append(change)
                } else {
                    batch.identifierChanges.append(change)
                }
            }
        }
        let inserts = placements.indices.filter { !matched.contains($0) }.map { index in
            ClassifiedBatch.RowChange(type: .insert, oldRowKey: nil, newRowKey: placements[index].rowKey, from: nil, to: newPaths[index])
        }
        batch.rowChanges = deletes.sorted { ($0.from ?? .init(section: 0, row: 0)) > ($1.from ?? .init(section: 0, row: 0)) }
            + inserts
            + moves.sorted { ($0.to ?? .init(section: 0, row: 0)) < ($1.to ?? .init(section: 0, row: 0)) }
            + updates.sorted { ($0.from ?? .init(section: 0, row: 0)) < ($1.from ?? .init(section: 0, row: 0)) }
        batch.identifierChanges.sort { ($0.from ?? .init(section: 0, row: 0)) < ($1.from ?? .init(section: 0, row: 0)) }
        return batch
    }

    private func sectionChanges(old: OldLayout, layout: NewLayout) -> [ClassifiedBatch.SectionChange] {
        let surviving = Set(layout.sections.compactMap(\.oldIndex))
        let deleted = old.sections.indices.reversed().filter { !surviving.contains($0) }.map {
            ClassifiedBatch.SectionChange(type: .delete, index: $0, name: old.sections[$0].name)
        }
        let inserted = layout.sections.indices.filter { layout.sections[$0].oldIndex == nil }.map {
            ClassifiedBatch.SectionChange(type: .insert, index: $0, name: layout.sections[$0].name)
        }
        return deleted + inserted
    }
}
