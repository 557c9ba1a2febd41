/// Binary searches over a controller's rows by sort key, many at once: every search takes its
/// next step together with the others, so the keys all of them need at one step are read in one
/// query, and all steps share one read transaction. A search first compares the first rows of
/// the index's chunks, whose keys stay cached from batch to batch, then the rows of one chunk:
/// searching k rows among n reads about k·log(chunk length) keys in about log n queries.
struct PositionSearch {
    let index: ResultIndex
    let reader: SortKeyReader

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
            var ranges = targets.map { _ in 0..<index.count }
            if uncomparablePositions.isEmpty {
                try narrowToChunks(&ranges, targets: targets)
            }
            try search(&ranges, targets: targets) { $0 }
            return ranges.map(\.lowerBound)
        }
    }

    /// Narrows each range to the rows after the last chunk head that sorts before its target, up
    /// to the next head.
    private func narrowToChunks(_ ranges: inout [Range<Int>], targets: [Target]) throws {
        let heads = index.chunkStarts
        for (target, chunk) in try chunksAfterHeads(of: targets).enumerated() {
            ranges[target] = (chunk == 0 ? 0 : heads[chunk - 1] + 1)..<(chunk < heads.count ? heads[chunk] : index.count)
        }
    }

    /// For each target, the index of the first chunk whose head does not sort before it.
    private func chunksAfterHeads(of targets: [Target]) throws -> [Int] {
        let heads = index.chunkStarts
        // Many targets: every head's key, looked up once, then plain binary searches in memory,
        // rather than a cache lookup per target per step.
        if targets.count * (Int.bitWidth - heads.count.leadingZeroBitCount) > heads.count, let headKeys = try keysOfEveryHead() {
            return targets.map { target in
                headKeys.partitioningIndex { head in !reader.precedes(head.key, head.row, target.key, target.rowKey) }
            }
        }
        var chunkRanges = targets.map { _ in 0..<heads.count }
        try search(&chunkRanges, targets: targets) { heads[$0] }
        return chunkRanges.map(\.lowerBound)
    }

    /// The keys of the chunks' first rows, in order; nil if one of them cannot be read.
    private func keysOfEveryHead() throws -> [(row: Int64, key: SortKeyReader.Key)]? {
        let rows = index.chunkStarts.map(index.rowKey(at:))
        var headKeys: [(row: Int64, key: SortKeyReader.Key)] = []
        headKeys.reserveCapacity(rows.count)
        for (row, key) in zip(rows, try reader.keys(of: rows)) {
            guard let key else { return nil }
            headKeys.append((row, key))
        }
        return headKeys
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

    /// The positions of rows among the results, found by their keys as the results were ordered;
    /// nil for a row not found there. A row whose key is unknown or wrong is found by looking at
    /// every row; `byKey` tells which were found by their keys (so the keys are right).
    func positions(of rows: [(key: SortKeyReader.Key?, rowKey: Int64)]) throws -> [(position: Int?, byKey: Bool)] {
        let searchable = rows.indices.filter { rows[$0].key != nil }
        let targets = searchable.map { (key: rows[$0].key ?? [], rowKey: rows[$0].rowKey) }
        let found = uncomparablePositions.isEmpty ? try positionsWithinChunks(of: targets) : try positionsByBisection(of: targets)
        var result = [(position: Int?, byKey: Bool)](repeating: (nil, false), count: rows.count)
        for (row, position) in zip(searchable, found) {
            if let position { result[row] = (position, true) }
        }
        let unfound = Set(rows.indices.filter { result[$0].position == nil }.map { rows[$0].rowKey })
        guard !unfound.isEmpty else { return result }
        var scanned: [Int64: Int] = [:]
        var position = 0
        for section in index.sections {
            for rowKey in section.rows {
                if unfound.contains(rowKey) { scanned[rowKey] = position }
                position += 1
            }
        }
        for row in rows.indices where result[row].position == nil {
            result[row] = (scanned[rows[row].rowKey], false)
        }
        return result
    }

    private func positionsByBisection(of targets: [Target]) throws -> [Int?] {
        let bounds = try lowerBounds(of: targets)
        return zip(targets, bounds).map { target, bound in
            bound < index.count && index.rowKey(at: bound) == target.rowKey ? bound : nil
        }
    }

    /// A row lies after the last chunk head that sorts before it, up to the next head: the heads
    /// are compared (their keys stay cached), then the row key is looked for among the rows
    /// between them, which costs no key reads. The row's key is then checked against its two
    /// neighbours, so that a key that is wrong but falls in the right chunk is not taken as right:
    /// two reads per row instead of a search's log(chunk length).
    private func positionsWithinChunks(of targets: [Target]) throws -> [Int?] {
        guard !targets.isEmpty, index.count > 0 else { return targets.map { _ in nil } }
        return try reader.searching {
            let heads = index.chunkStarts
            let chunks = try chunksAfterHeads(of: targets)
            let candidates = zip(targets, chunks).map { target, chunk -> Int? in
                let lower = chunk == 0 ? 0 : heads[chunk - 1] + 1
                let upper = chunk < heads.count ? heads[chunk] + 1 : index.count
                return index.scanPosition(of: target.rowKey, in: lower..<upper)
            }
            // Each candidate's row before and after it (the same row where there is none).
            let neighbours = candidates.compactMap { $0 }.flatMap { position in
                [index.rowKey(at: max(0, position - 1)), index.rowKey(at: min(index.count - 1, position + 1))]
            }
            var keys = try reader.keys(of: neighbours).makeIterator()
            return zip(targets, candidates).map { target, candidate -> Int? in
                guard let position = candidate else { return nil }
                let before = keys.next() ?? nil, after = keys.next() ?? nil
                if position > 0 {
                    guard let before, reader.precedes(before, index.rowKey(at: position - 1), target.key, target.rowKey) else { return nil }
                }
                if position + 1 < index.count {
                    guard let after, reader.precedes(target.key, target.rowKey, after, index.rowKey(at: position + 1)) else { return nil }
                }
                return position
            }
        }
    }
}
