/// A request's `fetchOffset` and `fetchLimit`, as a live controller keeps them.
struct FetchWindow: Equatable {
    var offset: Int
    /// 0 for no limit.
    var limit: Int

    /// Rows read beyond the window, so that rows leaving it are replaced from memory and the
    /// store is read again only after about this many have left: as many as the window shows,
    /// at least 16 and at most 1,000.
    var slack: Int { min(1_000, max(16, limit)) }

    /// How many rows a read of the head asks for; 0 for all of them (a window without limit).
    var headFetchLimit: Int { limit == 0 ? 0 : offset + limit + slack }

    /// The most rows the head keeps before it lets the last ones go.
    var headCapacity: Int { limit == 0 ? Int.max : offset + limit + 2 * slack }
}

/// A windowed controller's view of the full result: its first rows, exactly as a fetch without
/// the window would order them, each with the sort key it is placed by. The window's rows are a
/// part of them; the rows before the window (the offset) and a few after it (the slack) are kept
/// too, so that a change anywhere in them moves the window's edges without reading the store.
///
/// Unless the head holds the whole result (``isWhole``), every row after it sorts after its last
/// row: a row placed after that one is beyond what the controller knows, and is let go.
struct WindowHead {
    typealias Key = SortKeyReader.Key

    let window: FetchWindow
    private(set) var rows: [Int64]
    /// The rows' keys, read right after the fetch (``readKeys(using:)``).
    private(set) var keys: [Key]
    private(set) var members: Set<Int64>
    /// Whether the head is the whole result: the last read returned fewer rows than it asked for.
    private(set) var isWhole: Bool
    /// Set when a window without limit replaced a limited one over a head that is not whole.
    private var wantsEveryRow = false

    init(window: FetchWindow, rows: [Int64], isWhole: Bool) {
        self.window = window
        self.rows = rows
        keys = []
        members = Set(rows)
        self.isWhole = isWhole
    }

    init(window: FetchWindow, rows: [Int64], keys: [Key], isWhole: Bool) {
        self.init(window: window, rows: rows, isWhole: isWhole)
        self.keys = keys
    }

    var hasKeys: Bool { keys.count == rows.count }

    /// The same rows under another window. A window without limit needs every row: unless the
    /// head has them, it must be read again (``needsRefill``).
    func moved(to window: FetchWindow) -> WindowHead {
        var head = WindowHead(window: window, rows: rows, keys: keys, isWhole: isWhole)
        head.wantsEveryRow = window.limit == 0 && !isWhole
        return head
    }

    /// The positions of the head the window shows.
    var visible: Range<Int> {
        let start = min(window.offset, rows.count)
        let end = window.limit == 0 ? rows.count : min(rows.count, window.offset + window.limit)
        return start..<end
    }

    /// Whether the head no longer reaches past the window's end while the result has more rows.
    var needsRefill: Bool {
        !isWhole && (wantsEveryRow || rows.count < window.offset + max(window.limit, 1))
    }

    func contains(_ rowKey: Int64) -> Bool {
        members.contains(rowKey)
    }

    /// Reads the keys of every row, when they are not known yet; rows the store no longer has are
    /// let go.
    mutating func readKeys(using reader: SortKeyReader) throws {
        guard !hasKeys else { return }
        let read = try reader.keys(of: rows)
        var kept: [Int64] = [], keptKeys: [Key] = []
        for (row, key) in zip(rows, read) {
            guard let key else { continue }
            kept.append(row)
            keptKeys.append(key)
        }
        self = WindowHead(window: window, rows: kept, keys: keptKeys, isWhole: isWhole)
        sort(using: reader)
    }

    /// Whether a row with this key belongs in the head: it sorts no later than the last row,
    /// after which the head knows nothing.
    func admits(_ key: Key, _ rowKey: Int64, reader: SortKeyReader) -> Bool {
        guard !isWhole, let last = rows.last else { return true }
        return !reader.precedes(keys[keys.count - 1], last, key, rowKey)
    }

    mutating func remove(_ removed: Set<Int64>) {
        guard !removed.isEmpty else { return }
        var keptRows: [Int64] = [], keptKeys: [Key] = []
        keptRows.reserveCapacity(rows.count)
        keptKeys.reserveCapacity(rows.count)
        for (row, key) in zip(rows, keys) where !removed.contains(row) {
            keptRows.append(row)
            keptKeys.append(key)
        }
        rows = keptRows
        keys = keptKeys
        members.subtract(removed)
    }

    mutating func insert(_ rowKey: Int64, key: Key, reader: SortKeyReader) {
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if reader.precedes(keys[middle], rows[middle], key, rowKey) { low = middle + 1 } else { high = middle }
        }
        rows.insert(rowKey, at: low)
        keys.insert(key, at: low)
        members.insert(rowKey)
    }

    /// Lets the rows beyond the head's capacity go: the head no longer holds the whole result.
    mutating func trim() {
        guard rows.count > window.headCapacity else { return }
        for row in rows[window.headCapacity...] { members.remove(row) }
        rows.removeSubrange(window.headCapacity...)
        keys.removeSubrange(window.headCapacity...)
        isWhole = false
    }

    /// Orders the rows by their keys: a read of the head may order rows by values the context has
    /// not merged yet, while keys are read as the context sees the store.
    private mutating func sort(using reader: SortKeyReader) {
        let order = rows.indices.sorted { reader.precedes(keys[$0], rows[$0], keys[$1], rows[$1]) }
        guard order != Array(rows.indices) else { return }
        rows = order.map { rows[$0] }
        keys = order.map { keys[$0] }
    }

    /// The head read again from the store's rows (the first ones, in order), keeping the keys
    /// it knows and taking those of `fresh` (rows a batch just changed).
    func refilled(with fetched: [Int64], asked limit: Int, knowing fresh: [Int64: Key], reader: SortKeyReader) throws -> WindowHead {
        var known = fresh
        for (row, key) in zip(rows, keys) { known[row] = key }
        let unknown = fetched.filter { known[$0] == nil }
        for (row, key) in zip(unknown, try reader.keys(of: unknown)) { known[row] = key }
        var newRows: [Int64] = [], newKeys: [Key] = []
        for row in fetched {
            guard let key = known[row] else { continue }
            newRows.append(row)
            newKeys.append(key)
        }
        var head = WindowHead(window: window, rows: newRows, keys: newKeys, isWhole: limit == 0 || fetched.count < limit)
        head.sort(using: reader)
        return head
    }
}
