/// Reads the little-endian fields of a section cache file, checking each against the bytes that
/// remain: reading past `end` throws ``SectionCacheError/truncated(atByte:needed:)``.
struct SectionCacheReader {
    private let raw: UnsafeRawBufferPointer
    private(set) var offset: Int
    private let end: Int

    init(_ raw: UnsafeRawBufferPointer, at offset: Int = 0, end: Int) {
        self.raw = raw
        self.offset = offset
        self.end = end
    }

    private var remaining: Int { end - offset }

    mutating func bytes(_ count: Int) throws(SectionCacheError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .truncated(atByte: end, needed: count - remaining) }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
    }

    private mutating func load<T: FixedWidthInteger>(_ type: T.Type) throws(SectionCacheError) -> T {
        T(littleEndian: try bytes(MemoryLayout<T>.size).loadUnaligned(as: T.self))
    }

    mutating func uint8() throws(SectionCacheError) -> UInt8 { try load(UInt8.self) }
    mutating func uint32() throws(SectionCacheError) -> UInt32 { try load(UInt32.self) }
    mutating func uint64() throws(SectionCacheError) -> UInt64 { try load(UInt64.self) }
    mutating func int64() throws(SectionCacheError) -> Int64 { try load(Int64.self) }

    mutating func string(_ field: String) throws(SectionCacheError) -> String {
        let length = Int(try uint32())
        let start = offset
        guard let string = String(validating: try bytes(length), as: UTF8.self) else {
            throw .invalidUTF8(field: field, atByte: start)
        }
        return string
    }

    mutating func nonNegative(_ field: String) throws(SectionCacheError) -> Int64 {
        let value = try int64()
        guard value >= 0 else { throw .negativeCount(field: field, value: value) }
        return value
    }

    /// A count of items that each take at least `size` bytes, refused when the rest of the file
    /// could not hold them: the caller may then allocate for that many.
    mutating func count(_ field: String, eachTaking size: Int) throws(SectionCacheError) -> Int {
        let value = try nonNegative(field)
        guard value <= Int64(remaining / size) else {
            let (bytes, overflow) = value.multipliedReportingOverflow(by: Int64(size))
            throw .truncated(atByte: end, needed: overflow ? .max : Int(clamping: bytes) - remaining)
        }
        return Int(value)
    }

    /// `count` Int64 values, copied in one go rather than decoded one by one.
    mutating func int64Array(_ count: Int) throws(SectionCacheError) -> [Int64] {
        let (size, overflow) = count.multipliedReportingOverflow(by: 8)
        let source = try bytes(overflow ? .max : size)
        return [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if _endian(little)
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            #else
            for index in 0..<count {
                buffer[index] = Int64(littleEndian: source.loadUnaligned(fromByteOffset: index * 8, as: Int64.self))
            }
            #endif
            initialized = count
        }
    }
}
