/// The old sections seen through a batch's removals: where each old row was, and where the kept
/// rows (the old rows the batch leaves alone) fall among the sections.
struct OldLayout {
    let sections: [ChangeClassifier.OldSection]
    /// Each section's first position.
    let starts: [Int]
    /// The batch's removals, by position.
    let removals: [ChangeClassifier.Removal]
    let removedPositions: [Int]
    /// Each section's first kept row, counted among kept rows only.
    let keptStarts: [Int]
    let keptCounts: [Int]
    let keptTotal: Int

    init(sections: [ChangeClassifier.OldSection], removals: [ChangeClassifier.Removal]) {
        self.sections = sections
        self.removals = removals.sorted { $0.position < $1.position }
        removedPositions = self.removals.map(\.position)
        var starts: [Int] = []
        var keptStarts: [Int] = []
        var keptCounts: [Int] = []
        var position = 0
        var removedSoFar = 0
        var removalIndex = 0
        for section in sections {
            starts.append(position)
            keptStarts.append(position - removedSoFar)
            var removedHere = 0
            while removalIndex < removedPositions.count, removedPositions[removalIndex] < position + section.count {
                removedHere += 1
                removalIndex += 1
            }
            keptCounts.append(section.count - removedHere)
            removedSoFar += removedHere
            position += section.count
        }
        self.starts = starts
        self.keptStarts = keptStarts
        self.keptCounts = keptCounts
        keptTotal = position - removedSoFar
    }

    /// The old section and row of an old position.
    func path(ofPosition position: Int) -> ClassifiedBatch.RowPath {
        let section = lastIndex(in: starts, notAbove: position)
        return .init(section: section, row: position - starts[section])
    }

    /// How many kept rows come before an old position.
    func keptRowsBefore(_ position: Int) -> Int {
        position - removedPositions.partitioningIndex { $0 >= position }
    }

    /// The section holding the kept row with this index (counted among kept rows).
    func sectionOfKeptRow(_ keptIndex: Int) -> Int {
        lastIndex(in: keptStarts, notAbove: keptIndex)
    }

    /// The last index whose value is at most `value`, in non-decreasing `values`.
    private func lastIndex(in values: [Int], notAbove value: Int) -> Int {
        max(0, values.partitioningIndex { $0 > value } - 1)
    }
}
