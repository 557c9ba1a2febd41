/// Binary searches over a controller's rows by sort key, many at once: every search takes its
/// next step together with the others, so the keys all of them need at one step are read in one
/// query, and all steps share one read transaction. A search first compares the first rows of
/// the index's chunks, whose keys stay cached from batch to batch, then the rows of one chunk:
/// searching k rows among n reads about k·log(chunk length) keys in about log n queries.
struct PositionSearch {
    let index: ResultIndex
    let reader: SortKeyReader
    /// The keys of the index's chunk heads, kept by the controller from batch to batch.
    let heads: ChunkHeads

    /// Positions of rows a batch takes out, ascending: a new row's gap is the number of rows
    /// before it that are not taken out.
    var removedPositions: [Int] = []
    /// Positions of rows taken out whose old keys are unknown: searches never compare with them.
    var uncomparablePositions: [Int] = []

    typealias Target = (key: SortKeyReader.Key, rowKey: Int64)

    /// For each target, how many rows that are not taken out sort before it.
    func gaps(of targets: [Target]) throws -> [Int] {
        try lowerBounds(of: targets).map { bound in bound - removedPositions.partitioningIndex { $0 >= bound } }
    }

    /// For each target, how many rows sort before it.
    func lowerBounds(of targets: [Target]) throws -> [Int] {
        guard !targets.isEmpty, index.count > 0 else { return targets.map { _ in 0 } }
        return try reader.searching {
            var ranges = try chunkRanges(of: targets)
            try search(&ranges, targets: targets) { $0 }
            return ranges.map(\.lowerBound)
        }
    }

    /// For each target, the rows after the last comparable chunk head that sorts before it, up
    /// to the next comparable head (which may be the answer itself).
    private func chunkRanges(of targets: [Target]) throws -> [Range<Int>] {
        let heads = try comparableHeads(forSearching: targets.count)
        return try chunksAfterHeads(of: targets, among: heads).map { chunk in
            (chunk == 0 ? 0 : heads.position(chunk - 1) + 1)..<(chunk < heads.count ? heads.position(chunk) : index.count)
        }
    }

    /// The chunk heads a search may compare with: indices into ``heads``, or all of them.
    private struct ComparableHeads {
        let heads: ChunkHeads
        /// Nil when every head can be compared.
        let members: [Int]?
        /// Whether every member's key is known, so that searches among them run in memory.
        let keysKnown: Bool

        var count: Int { members?.count ?? heads.count }
        func head(_ member: Int) -> Int { members?[member] ?? member }
        func position(_ member: Int) -> Int { heads.positions[head(member)] }
    }

    private func comparableHeads(forSearching targets: Int) throws -> ComparableHeads {
        // Many targets: every head's key, read once and kept, then plain binary searches in
        // memory, rather than a cache lookup per target per step.
        if !heads.isComplete, targets * (Int.bitWidth - heads.count.leadingZeroBitCount) > heads.count {
            try heads.readMissing(using: reader)
        }
        let keysKnown = heads.isComplete
        // Heads taken out whose old keys are unknown, and (searching in memory) heads the store no
        // longer has, cannot be compared.
        guard !uncomparablePositions.isEmpty || (keysKnown && heads.unreadable > 0) else {
            return ComparableHeads(heads: heads, members: nil, keysKnown: keysKnown)
        }
        var members: [Int] = []
        members.reserveCapacity(heads.count)
        var uncomparable = uncomparablePositions.makeIterator()
        var nextUncomparable = uncomparable.next()
        for head in 0..<heads.count {
            let position = heads.positions[head]
            while let skipped = nextUncomparable, skipped < position { nextUncomparable = uncomparable.next() }
            if nextUncomparable == position || (keysKnown && heads.keys[head] == nil) { continue }
            members.append(head)
        }
        return ComparableHeads(heads: heads, members: members, keysKnown: keysKnown)
    }

    /// For each target, the first of `heads` that does not sort before it.
    private func chunksAfterHeads(of targets: [Target], among heads: ComparableHeads) throws -> [Int] {
        if heads.keysKnown {
            return targets.map { target in
                var low = 0, high = heads.count
                while low < high {
                    let middle = (low + high) / 2
                    let head = heads.head(middle)
                    // Members' keys are known: the `?? true` is never taken.
                    if self.heads.keys[head].map({ reader.precedes($0, self.heads.rows[head], target.key, target.rowKey) }) ?? true {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                return low
            }
        }
        var chunkRanges = targets.map { _ in 0..<heads.count }
        try search(&chunkRanges, targets: targets) { heads.position($0) }
        return chunkRanges.map(\.lowerBound)
    }

    /// Lockstep binary searches: each range shrinks to the first place whose row does not sort
    /// before the target. `position` maps a place to a row position.
    private func search(_ ranges: inout [Range<Int>], targets: [Target], position: (Int) -> Int) throws {
        while true {
            var probes: [(target: Int, place: Int, row: Int64)] = []
            for target in targets.indices where !ranges[target].isEmpty {
                let range = ranges[target]
                guard let place = comparablePlace(in: range, position: position) else {
                    // Only rows taken out with unknown keys: any place in the range gives the
                    // same gap.
                    ranges[target] = range.lowerBound..<range.lowerBound
                    continue
                }
                probes.append((target, place, index.rowKey(at: position(place))))
            }
            guard !probes.isEmpty else { return }
            let keys = try reader.keys(of: probes.map(\.row))
            for (probe, key) in zip(probes, keys) {
                let range = ranges[probe.target]
                // A row the store no longer has cannot be compared: the search goes left of it,
                // which keeps the results a valid list; the merge of its deletion removes it.
                if let key, reader.precedes(key, probe.row, targets[probe.target].key, targets[probe.target].rowKey) {
                    ranges[probe.target] = (probe.place + 1)..<range.upperBound
                } else {
                    ranges[probe.target] = range.lowerBound..<probe.place
                }
            }
        }
    }

    /// The middle place of a range, or the nearest one whose row can be compared.
    private func comparablePlace(in range: Range<Int>, position: (Int) -> Int) -> Int? {
        let middle = (range.lowerBound + range.upperBound) / 2
        guard !uncomparablePositions.isEmpty else { return middle }
        func comparable(_ place: Int) -> Bool {
            let row = position(place)
            let found = uncomparablePositions.partitioningIndex { $0 >= row }
            return found == uncomparablePositions.count || uncomparablePositions[found] != row
        }
        for distance in 0..<range.count {
            if middle + distance < range.upperBound, comparable(middle + distance) { return middle + distance }
            if middle - distance >= range.lowerBound, comparable(middle - distance) { return middle - distance }
        }
        return nil
    }

    /// The positions of rows among the results: each row is looked for among the rows of the
    /// chunk its key places it in, which costs no key reads; a row whose key is unknown, or wrong
    /// so that the chunk does not hold it, is found by looking at every row. Nil for a row not
    /// among the results.
    func positions(of rows: [(key: SortKeyReader.Key?, rowKey: Int64)]) throws -> [Int?] {
        let searchable = rows.indices.filter { rows[$0].key != nil }
        let targets = searchable.map { (key: rows[$0].key ?? [], rowKey: rows[$0].rowKey) }
        var result = [Int?](repeating: nil, count: rows.count)
        if !targets.isEmpty, index.count > 0 {
            let ranges = try reader.searching { try chunkRanges(of: targets) }
            for (row, range) in zip(searchable, ranges) {
                // The chunk's own head closes the range: include it.
                result[row] = index.scanPosition(of: rows[row].rowKey, in: range.lowerBound..<(range.upperBound + 1))
            }
        }
        let unfound = Set(rows.indices.filter { result[$0] == nil }.map { rows[$0].rowKey })
        guard !unfound.isEmpty else { return result }
        var scanned: [Int64: Int] = [:]
        var position = 0
        for section in index.sections {
            for rowKey in section.rows {
                if unfound.contains(rowKey) { scanned[rowKey] = position }
                position += 1
            }
        }
        for row in rows.indices where result[row] == nil {
            result[row] = scanned[rows[row].rowKey]
        }
        return result
    }
}
