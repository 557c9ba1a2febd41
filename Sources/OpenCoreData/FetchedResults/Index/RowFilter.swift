/// Which row keys may be among the results, in about two bytes per row: a Bloom filter. "No" is
/// certain, so a change to an object outside the results costs no search; "maybe" is checked by
/// a search. Removed rows are not cleared (a Bloom filter cannot forget); the filter is rebuilt
/// when such stale entries or growth make "maybe" too frequent.
///
/// Results of at most ``exactLimit`` rows keep the rows themselves instead, and answer exactly:
/// a server keeps thousands of such small lists, and every merged row is asked about in each,
/// so a Bloom filter's 1 to 5% of false "maybe"s would each cost a search (and a store read)
/// in most of them.
struct RowFilter: Sendable {
    private var bits: [UInt64]
    private var mask: UInt64
    /// Rows added since the last rebuild, removed or not.
    private var entries = 0
    /// The rows, for small results; nil for a Bloom filter.
    private var exact: Set<Int64>?

    private static let bitsPerRow = 16
    static let exactLimit = 1024

    init<Keys: Sequence<Int64>>(_ keys: Keys, expectedCount: Int) {
        if expectedCount <= Self.exactLimit {
            exact = Set(keys)
            bits = []
            mask = 0
            return
        }
        let wanted = max(1024, expectedCount * Self.bitsPerRow)
        var size = 1024
        while size < wanted { size <<= 1 }
        bits = [UInt64](repeating: 0, count: size / 64)
        mask = UInt64(size - 1)
        for key in keys { add(key) }
    }

    func mayContain(_ key: Int64) -> Bool {
        if let exact { return exact.contains(key) }
        let (first, second) = hashes(key)
        return isSet(first) && isSet(second)
    }

    mutating func add(_ key: Int64) {
        if exact != nil {
            exact?.insert(key)
            return
        }
        let (first, second) = hashes(key)
        bits[Int(first >> 6)] |= 1 << (first & 63)
        bits[Int(second >> 6)] |= 1 << (second & 63)
        entries += 1
    }

    /// Forgets a row that left the results; only the exact form can.
    mutating func remove(_ key: Int64) {
        exact?.remove(key)
    }

    /// Whether the filter should be rebuilt from the current rows: a Bloom filter holding so many
    /// entries for its size (counting removed rows), or rows grown past the exact form's limit.
    func needsRebuild(currentCount: Int) -> Bool {
        if exact != nil { return currentCount > 2 * Self.exactLimit }
        return entries * Self.bitsPerRow > bits.count * 64 || entries > 2 * max(currentCount, 512)
    }

    private func isSet(_ bit: UInt64) -> Bool {
        bits[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }

    private func hashes(_ key: Int64) -> (UInt64, UInt64) {
        // SplitMix64's finaliser: well mixed, cheap, and stable across runs.
        var z = UInt64(bitPattern: key) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (z & mask, (z >> 32 | z << 32) & mask)
    }
}
