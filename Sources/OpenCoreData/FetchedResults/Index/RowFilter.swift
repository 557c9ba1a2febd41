/// Which row keys may be among the results, in about two bytes per row: a Bloom filter. "No" is
/// certain, so a change to an object outside the results costs no search; "maybe" is checked by
/// a search. Removed rows are not cleared (a Bloom filter cannot forget); the filter is rebuilt
/// when such stale entries or growth make "maybe" too frequent.
struct RowFilter: Sendable {
    private var bits: [UInt64]
    private var mask: UInt64
    /// Rows added since the last rebuild, removed or not.
    private var entries = 0

    private static let bitsPerRow = 16

    init<Keys: Sequence<Int64>>(_ keys: Keys, expectedCount: Int) {
        let wanted = max(1024, expectedCount * Self.bitsPerRow)
        var size = 1024
        while size < wanted { size <<= 1 }
        bits = [UInt64](repeating: 0, count: size / 64)
        mask = UInt64(size - 1)
        for key in keys { add(key) }
    }

    func mayContain(_ key: Int64) -> Bool {
        let (first, second) = hashes(key)
        return isSet(first) && isSet(second)
    }

    mutating func add(_ key: Int64) {
        let (first, second) = hashes(key)
        bits[Int(first >> 6)] |= 1 << (first & 63)
        bits[Int(second >> 6)] |= 1 << (second & 63)
        entries += 1
    }

    /// Whether the filter holds so many entries for its size (counting removed rows) that it
    /// should be rebuilt from the current rows.
    func needsRebuild(currentCount: Int) -> Bool {
        entries * Self.bitsPerRow > bits.count * 64 || entries > 2 * max(currentCount, 512)
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
