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
    var uncomparable = PositionRuns(sorted: [])

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
            try search(&ranges, targets: targets, contiguous: true) { $0 }
            return ranges.map(\.lowerBound)
        }
    }

    /// For each target, the rows after the last comparable chunk head that sorts before it, up
    /// to the next comparable head (which may be the answer itself).
    private func chunkRanges(of targets: [Target]) throws -> [Range<Int>] {
        let heads = try comparableHeads(forSearching: targets.count)
        return try chunksAfterHeads(of: targets, among: heads).map { chunk in
            // A head taken out with an unknown key bounds nothing: the range reaches past it.
            var before = chunk - 1, after = chunk
            while before >= 0, isUncomparable(heads.position(before)) { before -= 1 }
            while after < heads.count, isUncomparable(heads.position(after)) { after += 1 }
            return (before < 0 ? 0 : heads.position(before) + 1)..<(after < heads.count ? heads.position(after) : index.count)
        }
    }

    private func isUncomparable(_ position: Int) -> Bool {
        !uncomparable.isEmpty && uncomparable.contains(position)
    }

    /// The chunk heads a search may compare with, with their keys when the search runs in memory.
    private struct ComparableHeads {
        let positions: [Int]
        let rows: [Int64]
        /// Every head's key, for a search in memory; nil for a search that reads them as it goes.
        let keys: [SortKeyReader.Key?]?
        /// Indices of the heads that can be compared, when not all of them can.
        let members: [Int]?

        var count: Int { members?.count ?? positions.count }
        func head(_ member: Int) -> Int { members?[member] ?? member }
        func position(_ member: Int) -> Int { positions[head(member)] }
    }

    private func comparableHeads(forSearching targets: Int) throws -> ComparableHeads {
        let headCount = index.chunkStarts.count
        // Few targets: a binary search over the heads, reading keys through the reader's cache,
        // where the heads' keys stay; rows taken out with unknown keys are stepped over.
        guard targets * (Int.bitWidth - headCount.leadingZeroBitCount) > headCount else {
            return ComparableHeads(positions: index.chunkStarts, rows: index.chunkHeadRowKeys, keys: nil, members: nil)
        }
        // Many targets: every head's key, kept from batch to batch, then plain binary searches in
        // memory, rather than a cache lookup per target per step.
        heads.update(to: index, reader: reader)
        if !heads.isComplete { try heads.readMissing(using: reader) }
        // Heads taken out whose old keys are unknown, and heads the store no longer has, cannot
        // be compared.
        var members: [Int]?
        if !uncomparable.isEmpty || heads.unreadable > 0 {
            var comparable: [Int] = []
            comparable.reserveCapacity(heads.count)
            var uncomparablePositions = uncomparable.positions.makeIterator()
            var nextUncomparable = uncomparablePositions.next()
            for head in 0..<heads.count {
                let position = heads.positions[head]
                while let skipped = nextUncomparable, skipped < position { nextUncomparable = uncomparablePositions.next() }
                if nextUncomparable == position || heads.keys[head] == nil { continue }
                comparable.append(head)
            }
            members = comparable
        }
        return ComparableHeads(positions: heads.positions, rows: heads.rows, keys: heads.keys, members: members)
    }

    /// For each target, the first of `heads` that does not sort before it.
    private func chunksAfterHeads(of targets: [Target], among heads: ComparableHeads) throws -> [Int] {
        if let keys = heads.keys {
            return targets.map { target in
                var low = 0, high = heads.count
                while low < high {
                    let middle = (low + high) / 2
                    let head = heads.head(middle)
                    // Members' keys are known: the `?? true` is never taken.
                    if keys[head].map({ reader.precedes($0, heads.rows[head], target.key, target.rowKey) }) ?? true {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                return low
            }
        }
        var chunkRanges = targets.map { _ in 0..<heads.count }
        try search(&chunkRanges, targets: targets, contiguous: false) { heads.position($0) }
        return chunkRanges.map(\.lowerBound)
    }

    /// Lockstep binary searches: each range shrinks to the first place whose row does not sort
    /// before the target. `position` maps a place to a row position; `contiguous` says it maps
    /// consecutive places to consecutive positions.
    private func search(_ ranges: inout [Range<Int>], targets: [Target], contiguous: Bool, position: (Int) -> Int) throws {
        while true {
            var probes: [(target: Int, place: Int, row: Int64)] = []
            for target in targets.indices where !ranges[target].isEmpty {
                let range = ranges[target]
                guard let place = comparablePlace(in: range, contiguous: contiguous, position: position) else {
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

    /// The middle place of a range, or the nearest one whose row can be compared (above it when
    /// two are as near).
    private func comparablePlace(in range: Range<Int>, contiguous: Bool, position: (Int) -> Int) -> Int? {
        let middle = (range.lowerBound + range.upperBound) / 2
        guard !uncomparable.isEmpty else { return middle }
        if contiguous {
            // Places are positions: step over the middle's whole run of rows taken out at once,
            // rather than place by place (a block of thousands makes every search step linear).
            guard let run = uncomparable.run(containing: position(middle)) else { return middle }
            let above = run.upperBound, below = run.lowerBound - 1
            let candidates = [above, below].filter { range.contains($0) }
            return candidates.min { abs($0 - middle) < abs($1 - middle) }
        }
        for distance in 0..<range.count {
            if middle + distance < range.upperBound, !isUncomparable(position(middle + distance)) { return middle + distance }
            if middle - distance >= range.lowerBound, !isUncomparable(position(middle - distance)) { return middle - distance }
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
