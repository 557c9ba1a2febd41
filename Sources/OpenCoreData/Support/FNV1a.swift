/// The 64-bit FNV-1a hash: a checksum for cache files and a short digest for long cache names.
/// Not cryptographic; it detects accidents (torn writes, bit rot), not tampering.
enum FNV1a {
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
