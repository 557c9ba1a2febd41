package import Foundation

extension SectionCacheFile {
    /// The contents of a file ``encode(_:)`` wrote.
    ///
    /// Every length and count is checked against the bytes that remain before anything is
    /// allocated for it, so a damaged or hostile file costs no more memory than its own size.
    ///
    /// - Throws: ``SectionCacheError`` naming the first problem found.
    package static func decode(_ data: Data) throws(SectionCacheError) -> SectionCacheContents {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(SectionCacheError) in try decode(raw) }
        }
        return try result.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer) throws(SectionCacheError) -> SectionCacheContents {
        guard raw.prefix(magic.count).elementsEqual(magic.prefix(raw.count)) else { throw .badMagic }
        var header = SectionCacheReader(raw, end: raw.count)
        _ = try header.bytes(magic.count)
        let version = try header.uint32()
        guard version == Self.version else { throw .unsupportedVersion(version) }
        let length = try header.uint64()
        let checksum = try header.uint64()
        let available = raw.count - headerSize
        guard length <= UInt64(available) else {
            throw .truncated(atByte: raw.count, needed: Int(clamping: length - UInt64(available)))
        }
        guard length == UInt64(available) else { throw .trailingBytes(count: available - Int(length)) }
        let computed = FNV1a.hash(UnsafeRawBufferPointer(rebasing: raw[headerSize...]))
        guard computed == checksum else { throw .checksumMismatch(stored: checksum, computed: computed) }

        var reader = SectionCacheReader(raw, at: headerSize, end: raw.count)
        let configuration = try reader.string("configuration")
        let storeIdentifier = try reader.string("store identifier")
        let generation = try reader.int64()
        let sectionCount = try reader.count("section count", eachTaking: minimumSectionSize)
        var sections: [SectionCacheContents.Section] = []
        sections.reserveCapacity(sectionCount)
        var total: Int64 = 0
        for index in 0..<sectionCount {
            let name = try reader.string("name of section \(index)")
            let marker = try reader.uint8()
            let title: String?
            switch marker {
            case 0: title = nil
            case 1: title = try reader.string("index title of section \(index)")
            default: throw .invalidTitleMarker(marker, atByte: reader.offset - 1)
            }
            let count = try reader.nonNegative("row count of section \(index)")
            let (sum, overflow) = total.addingReportingOverflow(count)
            total = overflow ? .max : sum
            sections.append(SectionCacheContents.Section(name: name, indexTitle: title, count: Int(truncatingIfNeeded: count)))
        }
        let rowCount = try reader.count("row count", eachTaking: 8)
        guard total == Int64(rowCount) else { throw .countMismatch(sectionTotal: total, rowCount: Int64(rowCount)) }
        let rowKeys = try reader.int64Array(rowCount)
        guard reader.offset == raw.count else { throw .trailingBytes(count: raw.count - reader.offset) }
        return SectionCacheContents(configuration: configuration, storeIdentifier: storeIdentifier,
                                    storeGeneration: generation, sections: sections, rowKeys: rowKeys)
    }
}
