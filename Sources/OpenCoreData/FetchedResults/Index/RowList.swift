/// A sequence of row keys kept in chunks, so that inserting or removing one row costs about a
/// chunk's length plus the number of chunks, not the length of the whole list, and copying the
/// list shares the chunks until one of them changes.
package struct RowList: Sendable, Equatable {
    /// The chunk length lists are built with unless told otherwise.
    package static let standardMaximumChunkLength = 256

    /// Chunks split when they reach this length; bulk-built chunks are half as long, leaving room.
    /// Short chunks only make tests cross many chunk boundaries with few rows.
    package let maximumChunkLength: Int
    private(set) var chunks: [[Int64]]
    /// The position of each chunk's first row.
    private var chunkStarts: [Int]
    package private(set) var count: Int

    package init<Keys: Collection<Int64>>(_ keys: Keys, maximumChunkLength: Int = RowList.standardMaximumChunkLength) {
        precondition(maximumChunkLength >= 4, "chunks must hold at least 4 rows")
        self.maximumChunkLength = maximumChunkLength
        chunks = []
        var chunk: [Int64] = []
        chunk.reserveCapacity(maximumChunkLength / 2)
        for key in keys {
            chunk.append(key)
            if chunk.count == maximumChunkLength / 2 {
                chunks.append(chunk)
                chunk = []
                chunk.reserveCapacity(maximumChunkLength / 2)
            }
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        count = keys.count
        chunkStarts = []
        recomputeStarts(from: 0)
    }

    package init(maximumChunkLength: Int = RowList.standardMaximumChunkLength) {
        self.init([Int64](), maximumChunkLength: maximumChunkLength)
    }

    package static func == (lhs: RowList, rhs: RowList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    package subscript(position: Int) -> Int64 {
        let (chunk, offset) = locate(position)
        return chunks[chunk][offset]
    }

    /// Inserts a key so that it ends up at `position` (0...count).
    package mutating func insert(_ key: Int64, at position: Int) {
        precondition(position >= 0 && position <= count, "row position \(position) out of 0...\(count)")
        guard !chunks.isEmpty else {
            chunks = [[key]]
            count = 1
            recomputeStarts(from: 0)
            return
        }
        let (chunk, offset) = position == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(position)
        chunks[chunk].insert(key, at: offset)
        count += 1
        if chunks[chunk].count >= maximumChunkLength {
            let upper = Array(chunks[chunk][(maximumChunkLength / 2)...])
            chunks[chunk].removeSubrange((maximumChunkLength / 2)...)
            chunks.insert(upper, at: chunk + 1)
        }
        recomputeStarts(from: chunk)
    }

    /// Removes and returns the key at `position`.
    @discardableResult
    package mutating func remove(at position: Int) -> Int64 {
        let (chunk, offset) = locate(position)
        let key = chunks[chunk].remove(at: offset)
        count -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
        } else if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count < maximumChunkLength / 2 {
            // Neighbours that shrank merge, so that many deletions do not leave many tiny chunks.
            chunks[chunk] += chunks[chunk + 1]
            chunks.remove(at: chunk + 1)
        }
        recomputeStarts(from: Swift.max(0, chunk - 1))
        return key
    }

    /// Removes the rows at `removals` (ascending positions), then inserts `insertions` (ascending
    /// positions in the final list): the same as one `remove(at:)` or `insert(_:at:)` per row,
    /// but the chunks' starts are worked out once, not once per row. Working from the end, every
    /// step touches only rows after the ones still to do, whose chunk starts are still right.
    package mutating func update(removingAt removals: [Int], inserting insertions: [(position: Int, key: Int64)]) {
        guard !removals.isEmpty || !insertions.isEmpty else { return }
        // Chunks up to this one have right starts; those after it may not.
        var settled = chunks.count - 1
        for position in removals.reversed() {
            let (chunk, offset) = locate(position, amongFirst: settled + 1)
            chunks[chunk].remove(at: offset)
            count -= 1
            settled = chunk
            if chunks[chunk].isEmpty {
                // The next chunk now starts where the emptied one did.
                let start = chunkStarts[chunk]
                chunks.remove(at: chunk)
                chunkStarts.remove(at: chunk)
                if chunk < chunks.count { chunkStarts[chunk] = start } else { settled = chunk - 1 }
            } else if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count < maximumChunkLength / 2 {
                chunks[chunk] += chunks[chunk + 1]
                chunks.remove(at: chunk + 1)
                chunkStarts.remove(at: chunk + 1)
            }
        }
        // Insertions are not ordered against removals: they start from right starts again.
        if !removals.isEmpty, !insertions.isEmpty, !chunks.isEmpty {
            recomputeStarts(from: Swift.max(0, settled))
            settled = chunks.count - 1
        }
        for (done, insertion) in insertions.enumerated().reversed() {
            // The rows inserted before this one are not in yet.
            let position = insertion.position - done
            precondition(position >= 0 && position <= count, "row position \(position) out of 0...\(count)")
            guard !chunks.isEmpty else {
                chunks = [[insertion.key]]
                chunkStarts = [0]
                count = 1
                settled = 0
                continue
            }
            // Appending needs no start, so the last chunk may be past the settled ones.
            let (chunk, offset) = position == count ? (chunks.count - 1, chunks[chunks.count - 1].count)
                : locate(position, amongFirst: settled + 1)
            chunks[chunk].insert(insertion.key, at: offset)
            count += 1
            let startIsRight = chunk <= settled
            settled = Swift.min(settled, chunk)
            if chunks[chunk].count >= maximumChunkLength {
                let half = maximumChunkLength / 2
                chunks.insert(Array(chunks[chunk][half...]), at: chunk + 1)
                chunks[chunk].removeSubrange(half...)
                chunkStarts.insert(chunkStarts[chunk] + half, at: chunk + 1)
                if startIsRight { settled = chunk + 1 }
            }
        }
        recomputeStarts(from: Swift.max(0, Swift.min(settled, chunks.count - 1)))
    }

    /// Replaces the key at `position`.
    package mutating func replace(at position: Int, with key: Int64) {
        let (chunk, offset) = locate(position)
        chunks[chunk][offset] = key
    }

    /// The position of `key`, by looking at every row.
    package func firstPosition(of key: Int64) -> Int? {
        firstPosition(of: key, in: 0..<count)
    }

    /// The position of `key` among the rows at `positions`, looking chunk by chunk without a
    /// search per row.
    package func firstPosition(of key: Int64, in positions: Range<Int>) -> Int? {
        let positions = positions.clamped(to: 0..<count)
        guard !positions.isEmpty else { return nil }
        var chunk = locate(positions.lowerBound).chunk
        while chunk < chunks.count, chunkStarts[chunk] < positions.upperBound {
            let start = chunkStarts[chunk]
            let offsets = Swift.max(0, positions.lowerBound - start)..<Swift.min(chunks[chunk].count, positions.upperBound - start)
            if let offset = chunks[chunk][offsets].firstIndex(of: key) { return start + offset }
            chunk += 1
        }
        return nil
    }

    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        locate(position, amongFirst: chunks.count)
    }

    /// Finds a position among the first `chunkCount` chunks, whose starts must be right.
    private func locate(_ position: Int, amongFirst chunkCount: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "row position \(position) out of 0..<\(count)")
        var low = 0
        var high = Swift.min(chunkCount, chunks.count) - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - chunkStarts[low])
    }

    private mutating func recomputeStarts(from chunk: Int) {
        if chunkStarts.count > chunks.count { chunkStarts.removeLast(chunkStarts.count - chunks.count) }
        while chunkStarts.count < chunks.count { chunkStarts.append(0) }
        var start = chunk == 0 ? 0 : chunkStarts[chunk - 1] + chunks[chunk - 1].count
        for index in chunk..<chunks.count {
            chunkStarts[index] = start
            start += chunks[index].count
        }
    }
}

extension RowList: RandomAccessCollection {
    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// Iterates chunk by chunk, without a search per row.
    package func makeIterator() -> FlattenSequence<[[Int64]]>.Iterator {
        chunks.joined().makeIterator()
    }
}
