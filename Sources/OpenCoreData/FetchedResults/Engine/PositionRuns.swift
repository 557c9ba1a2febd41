/// Sorted row positions held as runs of consecutive positions, so that a search can step over
/// a whole run at once: a batch that takes out a block of rows (a batch update of one section's
/// rows) leaves thousands of consecutive positions a search must not compare with.
struct PositionRuns {
    /// The positions, ascending.
    let positions: [Int]
    /// Run `i` is `starts[i]..<ends[i]`.
    private var starts: [Int] = []
    private var ends: [Int] = []

    /// The runs of `positions`, which must be ascending (repeats are ignored).
    init(sorted positions: [Int]) {
        self.positions = positions
        for position in positions {
            if let end = ends.last, position <= end {
                if position == end { ends[ends.count - 1] = end + 1 }
            } else {
                starts.append(position)
                ends.append(position + 1)
            }
        }
    }

    var isEmpty: Bool { positions.isEmpty }

    /// The run holding `position`, if one does.
    func run(containing position: Int) -> Range<Int>? {
        let run = ends.partitioningIndex { $0 > position }
        guard run < starts.count, starts[run] <= position else { return nil }
        return starts[run]..<ends[run]
    }

    func contains(_ position: Int) -> Bool { run(containing: position) != nil }
}
