/// A controller's results as row keys in sections: what it holds instead of objects. Positions
/// count rows across sections, in order.
struct ResultIndex: Sendable {
    struct Section: Sendable {
        var name: String
        var indexTitle: String?
        var rows: RowList
    }

    private(set) var sections: [Section]
    /// The chunk length of the sections' row lists, new sections included.
    private(set) var rowChunkLength = RowList.standardMaximumChunkLength
    private var starts: [Int]
    private(set) var count: Int
    /// The position of the first row of every chunk of every section, ascending: the rows a
    /// search compares first, which stay the same while rows come and go around them.
    private(set) var chunkStarts: [Int] = []
    /// The row key of the first row of every chunk, in the order of ``chunkStarts``.
    private(set) var chunkHeadRowKeys: [Int64] = []

    init(sections: [Section]) {
        self.sections = sections
        starts = []
        count = 0
        recomputeStarts()
    }

    /// The same rows, in lists of chunks of at most `length` rows.
    func rechunked(toLength length: Int) -> ResultIndex {
        var index = ResultIndex(sections: sections.map { section in
            Section(name: section.name, indexTitle: section.indexTitle, rows: RowList(section.rows, maximumChunkLength: length))
        })
        index.rowChunkLength = length
        return index
    }

    var sectionShapes: [ChangeClassifier.OldSection] {
        sections.map { ChangeClassifier.OldSection(name: $0.name, count: $0.rows.count) }
    }

    func rowKey(at position: Int) -> Int64 {
        let (section, row) = path(ofPosition: position)
        return sections[section].rows[row]
    }

    func path(ofPosition position: Int) -> (section: Int, row: Int) {
        let section = max(0, starts.partitioningIndex { $0 > position } - 1)
        return (section, position - starts[section])
    }

    func position(section: Int, row: Int) -> Int {
        starts[section] + row
    }

    /// The position of a row key among the rows at `positions`, by looking at each of them.
    func scanPosition(of rowKey: Int64, in positions: Range<Int>) -> Int? {
        let positions = positions.clamped(to: 0..<count)
        guard !positions.isEmpty else { return nil }
        var section = path(ofPosition: positions.lowerBound).section
        while section < sections.count, starts[section] < positions.upperBound {
            let rows = (positions.lowerBound - starts[section])..<(positions.upperBound - starts[section])
            if let row = sections[section].rows.firstPosition(of: rowKey, in: rows) { return starts[section] + row }
            section += 1
        }
        return nil
    }

    /// Every row key, in order.
    var allRowKeys: [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        for section in sections { keys.append(contentsOf: section.rows) }
        return keys
    }

    /// Moves to the layout a classified batch describes.
    ///
    /// - Parameter indexTitle: The index title of each new section, by name.
    mutating func apply(_ batch: ClassifiedBatch, indexTitle: (String) -> String?) {
        var removals = [[Int]](repeating: [], count: sections.count)
        for position in batch.removedPositions {
            let (section, row) = path(ofPosition: position)
            removals[section].append(row)
        }
        for section in sections.indices where !removals[section].isEmpty {
            sections[section].rows.update(removingAt: removals[section], inserting: [])
        }
        sections = batch.layout.map { layout in
            if let old = layout.oldIndex { return sections[old] }
            return Section(name: layout.name, indexTitle: indexTitle(layout.name), rows: RowList(maximumChunkLength: rowChunkLength))
        }
        var finalStarts: [Int] = []
        var position = 0
        for layout in batch.layout {
            finalStarts.append(position)
            position += layout.count
        }
        var insertions = [[(position: Int, key: Int64)]](repeating: [], count: sections.count)
        for insertion in batch.insertions {
            let section = max(0, finalStarts.partitioningIndex { $0 > insertion.position } - 1)
            insertions[section].append((insertion.position - finalStarts[section], insertion.rowKey))
        }
        for section in sections.indices where !insertions[section].isEmpty {
            sections[section].rows.update(removingAt: [], inserting: insertions[section])
        }
        recomputeStarts()
    }

    private mutating func recomputeStarts() {
        starts = []
        starts.reserveCapacity(sections.count)
        chunkStarts = []
        chunkHeadRowKeys = []
        var position = 0
        for section in sections {
            starts.append(position)
            for chunk in section.rows.chunks {
                chunkStarts.append(position)
                chunkHeadRowKeys.append(chunk[0])
                position += chunk.count
            }
        }
        count = position
    }
}
