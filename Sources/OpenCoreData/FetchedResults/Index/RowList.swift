/// A sequence of row keys kept in chunks, so that inserting or removing one row costs about a
/// chunk's length plus the number of chunks, not the length of the whole list, and copying the
/// list shares the chunks until one of them changes.
package struct RowList: Sendable, Equatable {
    /// Chunks split when they reach this length; bulk-built chunks are half as long, leaving room.
    static let maximumChunkLength = 256

    private(set) var chunks: [[Int64]]
    /// The position of each chunk's first row.
    private var chunkStarts: [Int]
    package private(set) var count: Int

    package init<Keys: Collection<Int64>>(_ keys: Keys) {
        chunks = []
        var chunk: [Int64] = []
        chunk.reserveCapacity(Self.maximumChunkLength / 2)
        for key in keys {
            chunk.append(key)
            if chunk.count == Self.maximumChunkLength / 2 {
                chunks.append(chunk)
                chunk = []
                chunk.reserveCapacity(Self.maximumChunkLength / 2)
            }
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        count = keys.count
        chunkStarts = []
        recomputeStarts(from: 0)
    }

    package init() {
        self.init([Int64]())
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
        if chunks[chunk].count >= Self.maximumChunkLength {
            let upper = Array(chunks[chunk][(Self.maximumChunkLength / 2)...])
            chunks[chunk].removeSubrange((Self.maximumChunkLength / 2)...)
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
        } else if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count < Self.maximumChunkLength / 2 {
            // Neighbours that shrank merge, so that many deletions do not leave many tiny chunks.
            chunks[chunk] += chunks[chunk + 1]
            chunks.remove(at: chunk + 1)
        }
        recomputeStarts(from: Swift.max(0, chunk - 1))
        return key
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
        precondition(position >= 0 && position < count, "row position \(position) out of 0..<\(count)")
        var low = 0
        var high = chunks.count - 1
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
