/// The sort keys of the first row of every chunk of a controller's index, in order: every search
/// compares them first, so they are read once and carried from batch to batch as the index
/// changes, rather than gathered again for every search.
///
/// A head's key is the key its row was placed with, so it stays right while the row stays: a
/// batch changes the keys of the rows it places only, and those take their new keys. The heads
/// follow the index only when a search needs them (a large batch): small batches, which search
/// through the reader's cache instead, do not pay a walk over every head.
final class ChunkHeads {
    /// The heads' positions among the results (the index's chunk starts).
    private(set) var positions: [Int] = []
    private(set) var rows: [Int64] = []
    /// Nil where the key has not been read yet, or the store no longer has the row.
    private(set) var keys: [SortKeyReader.Key?] = []
    /// Heads whose keys have not been asked for yet.
    private var unread = 0
    /// Heads whose keys were asked for, but whose rows the store no longer has.
    private(set) var unreadable = 0

    /// The keys of rows placed since the heads last followed the index; nil while they follow it.
    private var placedSinceFollow: [Int64: SortKeyReader.Key]?

    init(index: ResultIndex, reader: SortKeyReader) {
        follow(index, placed: [:], reader: reader)
    }

    /// Notes a batch's placed rows; the heads follow the index at the next ``update(to:reader:)``.
    func batchPlaced(_ placed: [Int64: SortKeyReader.Key]) {
        var pending = placedSinceFollow ?? [:]
        pending.merge(placed) { _, newer in newer }
        if pending.count > max(1024, rows.count) {
            // Many batches since the last search that needed the heads: start over rather than
            // keep every placed key; the heads' keys come from the reader's cache or a read.
            rows = []
            keys = []
            pending = [:]
        }
        placedSinceFollow = pending
    }

    /// Brings the heads to the index's layout, if batches changed it since they last followed it.
    func update(to index: ResultIndex, reader: SortKeyReader) {
        guard let placed = placedSinceFollow else { return }
        follow(index, placed: placed, reader: reader)
        placedSinceFollow = nil
    }

    var count: Int { positions.count }

    /// Whether every head's key has been asked for.
    var isComplete: Bool { unread == 0 }

    /// Moves to the index's layout: heads that stayed keep their keys, rows placed since take
    /// their new keys, and other new heads take what the reader knows.
    private func follow(_ index: ResultIndex, placed: [Int64: SortKeyReader.Key], reader: SortKeyReader) {
        let oldRows = rows
        // Moved out one by one below, rather than copied: no reference counting per kept key.
        var oldKeys = keys
        keys = []
        positions = index.chunkStarts
        rows = index.chunkHeadRowKeys
        keys.reserveCapacity(rows.count)
        unread = 0
        unreadable = 0
        // Heads mostly stay in order, with a few gained (a chunk split, a first row taken out)
        // or lost: a short look ahead in the old heads finds the ones that stayed.
        var next = 0
        // Sorted, so that the many heads the batch did not place cost a binary search, not a hash.
        let placedRows = placed.keys.sorted()
        for row in rows {
            let placedAt = placedRows.partitioningIndex { $0 >= row }
            if placedAt < placedRows.count, placedRows[placedAt] == row, let key = placed[row] {
                keys.append(key)
                continue
            }
            var found: SortKeyReader.Key??
            for candidate in next..<min(next + 4, oldRows.count) where oldRows[candidate] == row {
                found = .some(oldKeys[candidate].take())
                next = candidate + 1
                break
            }
            if let found, let key = found {
                keys.append(key)
            } else if let key = reader.knownKey(of: row) {
                keys.append(key)
            } else {
                keys.append(nil)
                unread += 1
            }
        }
    }

    /// Reads the keys of the heads not read yet, all at once.
    func readMissing(using reader: SortKeyReader) throws {
        guard unread > 0 else { return }
        let missing = keys.indices.filter { keys[$0] == nil }
        for (head, key) in zip(missing, try reader.keys(of: missing.map { rows[$0] })) {
            keys[head] = key
            if key == nil { unreadable += 1 }
        }
        unread = 0
    }
}
