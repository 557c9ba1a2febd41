/// Binary searches over a controller's rows by sort key, many at once: every search takes its
/// next step together with the others, so the keys all of them need at one step are read in one
/// query. Searching k rows among n costs about log n queries, not k·log n.
struct PositionSearch {
    let index: ResultIndex
    let reader: SortKeyReader

    /// Positions of rows a batch takes out, ascending: searches for new places skip them, as
    /// their keys are the ones that changed.
    var removedPositions: [Int] = []

    /// For each target, how many rows sort before it (rows taken out not counted).
    func lowerBounds(of targets: [(key: SortKeyReader.Key, rowKey: Int64)]) throws -> [Int] {
        let keptCount = index.count - removedPositions.count
        var low = [Int](repeating: 0, count: targets.count)
        var high = [Int](repeating: keptCount, count: targets.count)
        while true {
            let active = targets.indices.filter { low[$0] < high[$0] }
            guard !active.isEmpty else { return low }
            let probes = active.map { index.rowKey(at: positionOfKeptRow((low[$0] + high[$0]) / 2)) }
            let keys = try reader.keys(of: probes)
            for (target, probe) in zip(active, probes) {
                let middle = (low[target] + high[target]) / 2
                // A row the store no longer has cannot be compared: the search goes left of it,
                // which keeps the results a valid list; the merge of its deletion removes it.
                if let key = keys[probe], reader.precedes(key, probe, targets[target].key, targets[target].rowKey) {
                    low[target] = middle + 1
                } else {
                    high[target] = middle
                }
            }
        }
    }

    /// The position of the kept row with this index (counted among kept rows).
    private func positionOfKeptRow(_ keptIndex: Int) -> Int {
        // The k-th removal lies after kept row u exactly when removedPositions[k] - k <= u.
        var low = 0
        var high = removedPositions.count
        while low < high {
            let middle = (low + high) / 2
            if removedPositions[middle] - middle <= keptIndex { low = middle + 1 } else { high = middle }
        }
        return keptIndex + low
    }

    /// The positions of rows among the results, found by their keys as the results were ordered;
    /// nil for a row not found there. A row whose key is unknown or wrong is found by looking at
    /// every row.
    func positions(of rows: [(key: SortKeyReader.Key?, rowKey: Int64)]) throws -> [Int?] {
        let searchable = rows.indices.filter { rows[$0].key != nil }
        let bounds = try lowerBounds(of: searchable.map { (rows[$0].key ?? [], rows[$0].rowKey) })
        var result = [Int?](repeating: nil, count: rows.count)
        for (row, bound) in zip(searchable, bounds) where bound < index.count && index.rowKey(at: bound) == rows[row].rowKey {
            result[row] = bound
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
