/// Decides the section of each placed row, in new order, and the sections of the new layout.
///
/// A row between two kept rows of one section joins it. A row at a section boundary joins a
/// section there with its name, or opens a new section there; sections are identified by name,
/// so a section whose rows all left and came back is the same section. A row whose name fits
/// none of these breaks the rule that objects are sorted by section name: it joins the section
/// it lands in, and is reported as out of order.
struct SectionAssignment {
    enum SectionReference: Hashable {
        case old(Int)
        case new(Int)
    }

    let old: OldLayout
    let isSectioned: Bool
    private let oldIndexByName: [String: Int]
    private(set) var sectionOfPlacement: [SectionReference] = []
    private(set) var outOfOrderRows: [ClassifiedBatch.OutOfOrderRow] = []
    /// New sections: name, and the old section they follow (-1 for before all).
    private var created: [(name: String, after: Int)] = []
    private var createdByName: [String: Int] = [:]
    private var joined: [SectionReference: Int] = [:]
    private var currentGap = -1
    private var current: SectionReference?
    private var lastOld = -1

    init(old: OldLayout, isSectioned: Bool) {
        self.old = old
        self.isSectioned = isSectioned
        oldIndexByName = Dictionary(old.sections.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func assign(_ placement: ChangeClassifier.Placement) {
        guard isSectioned else {
            join(.old(0))
            return
        }
        let gap = placement.gap
        let left = gap > 0 ? old.sectionOfKeptRow(gap - 1) : nil
        let right = gap < old.keptTotal ? old.sectionOfKeptRow(gap) : nil
        if gap != currentGap {
            currentGap = gap
            lastOld = left ?? -1
            current = left.map { .old($0) }
        }
        let name = placement.sectionName
        if let left, left == right {
            join(.old(left))
            if old.sections[left].name != name { recordOutOfOrder(placement, shownIn: old.sections[left].name) }
            return
        }
        if case .new(let id) = current, created[id].name == name {
            join(.new(id))
            return
        }
        let first = left ?? 0
        let last = right ?? old.sections.count - 1
        let isAfterNewSection: Bool = if case .new = current { true } else { false }
        if let candidate = oldIndexByName[name], candidate >= first, candidate <= last,
           isAfterNewSection ? candidate > lastOld : candidate >= lastOld {
            lastOld = candidate
            join(.old(candidate))
            return
        }
        if oldIndexByName[name] == nil, createdByName[name] == nil {
            createdByName[name] = created.count
            created.append((name, lastOld))
            join(.new(created.count - 1))
            return
        }
        let fallback: SectionReference = current ?? .old(min(max(lastOld, first), max(last, 0)))
        join(fallback)
        recordOutOfOrder(placement, shownIn: self.name(of: fallback))
    }

    /// The sections after the batch, in order.
    func layout() -> NewLayout {
        var sections: [ClassifiedBatch.LayoutSection] = []
        var references: [SectionReference] = []
        func appendCreated(after anchor: Int) {
            for (id, section) in created.enumerated() where section.after == anchor {
                sections.append(.init(name: section.name, count: joined[.new(id)] ?? 0, oldIndex: nil))
                references.append(.new(id))
            }
        }
        appendCreated(after: -1)
        for (index, section) in old.sections.enumerated() {
            let count = old.keptCounts[index] + (joined[.old(index)] ?? 0)
            if count > 0 || !isSectioned {
                sections.append(.init(name: section.name, count: count, oldIndex: index))
                references.append(.old(index))
            }
            appendCreated(after: index)
        }
        return NewLayout(sections: sections, references: references)
    }

    private mutating func join(_ section: SectionReference) {
        sectionOfPlacement.append(section)
        joined[section, default: 0] += 1
        current = section
    }

    private mutating func recordOutOfOrder(_ placement: ChangeClassifier.Placement, shownIn section: String) {
        outOfOrderRows.append(.init(rowKey: placement.rowKey, sectionName: placement.sectionName, shownInSection: section))
    }

    private func name(of section: SectionReference) -> String {
        switch section {
        case .old(let index): old.sections.indices.contains(index) ? old.sections[index].name : ""
        case .new(let id): created[id].name
        }
    }
}

/// The sections after a batch, with where each starts.
struct NewLayout {
    let sections: [ClassifiedBatch.LayoutSection]
    let references: [SectionAssignment.SectionReference]
    private let starts: [Int]
    private let indexByReference: [SectionAssignment.SectionReference: Int]

    init(sections: [ClassifiedBatch.LayoutSection], references: [SectionAssignment.SectionReference]) {
        self.sections = sections
        self.references = references
        var starts: [Int] = []
        var position = 0
        for section in sections {
            starts.append(position)
            position += section.count
        }
        self.starts = starts
        indexByReference = Dictionary(uniqueKeysWithValues: references.enumerated().map { ($0.element, $0.offset) })
    }

    func index(of reference: SectionAssignment.SectionReference) -> Int {
        indexByReference[reference] ?? 0
    }

    func path(ofPosition position: Int, inSection reference: SectionAssignment.SectionReference) -> ClassifiedBatch.RowPath {
        let section = index(of: reference)
        return .init(section: section, row: position - starts[section])
    }
}
