/// Chooses which repositioned rows of one gap (between the same two unchanged rows) can be reported
/// as updates: the largest set whose old order is kept in the new order. The others are moves.
///
/// This is Core Data's move lowering (iOS 10 and later): a row whose displacement is explained by
/// the other changes is not moved. Rows whose keys did not change weigh most, so they are never
/// moved for a row that changed. Rows that land on their old index path come next, above any
/// number of other rows: Core Data reports them as updates in place, which is only valid when
/// they are among the unmoved rows. (Rows that keep their index path never conflict with each
/// other, so all of them fit in one chain.)
enum MoveLowering {
    struct Candidate {
        /// The row's old position (any increasing numbering of old positions will do).
        var oldPosition: Int
        /// Whether the row's sort and section keys did not change.
        var keysUnchanged: Bool
        /// Whether the row keeps its index path.
        var keepsIndexPath: Bool

        var weight: Int { (keysUnchanged ? 1 << 42 : 0) + (keepsIndexPath ? 1 << 21 : 0) + 1 }
    }

    /// The indices (into `candidates`, which are in new order) of the rows to report as updates.
    ///
    /// - Complexity: O(m log m) for m candidates: a heaviest increasing subsequence, with a
    ///   Fenwick tree of prefix maxima over the old positions.
    static func unmovedRows(_ candidates: [Candidate]) -> Set<Int> {
        guard candidates.count > 1 else { return Set(candidates.indices) }
        let ranks = rankOfOldPositions(candidates)
        var tree = PrefixMaximumTree(size: candidates.count)
        var best = [Int](repeating: 0, count: candidates.count)
        var previous = [Int](repeating: -1, count: candidates.count)
        var end = -1
        for index in candidates.indices {
            let (weight, before) = tree.maximum(upTo: ranks[index])
            best[index] = weight + candidates[index].weight
            previous[index] = before
            tree.update(at: ranks[index] + 1, weight: best[index], index: index)
            // On ties the later row ends the chain: swapping two rows then moves the one that
            // went up and updates the one that went down, as Core Data reports it.
            if end < 0 || best[index] >= best[end] { end = index }
        }
        var kept: Set<Int> = []
        while end >= 0 {
            kept.insert(end)
            end = previous[end]
        }
        return kept
    }

    private static func rankOfOldPositions(_ candidates: [Candidate]) -> [Int] {
        let order = candidates.indices.sorted { candidates[$0].oldPosition < candidates[$1].oldPosition }
        var ranks = [Int](repeating: 0, count: candidates.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }
}

/// Prefix maxima of (weight, index) over positions 1...size.
private struct PrefixMaximumTree {
    private var weights: [Int]
    private var indices: [Int]

    init(size: Int) {
        weights = [Int](repeating: 0, count: size + 1)
        indices = [Int](repeating: -1, count: size + 1)
    }

    /// The heaviest entry at positions 1...position (0 gives none).
    func maximum(upTo position: Int) -> (weight: Int, index: Int) {
        var position = position
        var result = (weight: 0, index: -1)
        while position > 0 {
            if weights[position] > result.weight { result = (weights[position], indices[position]) }
            position -= position & -position
        }
        return result
    }

    mutating func update(at position: Int, weight: Int, index: Int) {
        var position = position
        while position < weights.count {
            if weight > weights[position] {
                weights[position] = weight
                indices[position] = index
            }
            position += position & -position
        }
    }
}
