import FetchedResultsChecking
import Foundation
@testable import OpenCoreData
import Testing

/// The section cache file format: round trips, and refusal of every damaged or hostile file.
@Suite struct SectionCacheFileTests {
    typealias Section = SectionCacheContents.Section

    static func contents(sections: [Section], generation: Int64 = 7, keys: [Int64]? = nil) -> SectionCacheContents {
        let total = sections.reduce(0) { $0 + $1.count }
        return SectionCacheContents(configuration: "Team|qualifyingZone+,teamName+|zone != nil", storeIdentifier: "STORE-UUID",
                                    storeGeneration: generation, sections: sections, rowKeys: keys ?? (0..<Int64(total)).map { $0 * 3 + 1 })
    }

    static let small = contents(sections: [Section(name: "AFC", indexTitle: "A", count: 2), Section(name: "", indexTitle: nil, count: 1)])

    private func decodeError(_ data: Data) -> SectionCacheError? {
        do {
            _ = try SectionCacheFile.decode(data)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Round trips

    @Test(arguments: [
        SectionCacheContents(configuration: "", storeIdentifier: "", storeGeneration: 0, sections: [], rowKeys: []),
        small,
        contents(sections: [Section(name: "Ünïcødé 🎉", indexTitle: "Ü", count: 1), Section(name: "日本", indexTitle: "日", count: 2),
                            Section(name: "a\u{0}b", indexTitle: nil, count: 0)], generation: -1),
        contents(sections: (0..<1000).map { Section(name: "Section \($0)", indexTitle: $0 % 3 == 0 ? nil : "\($0 % 26)", count: $0 % 7) },
                 generation: .max),
        contents(sections: [Section(name: "keys", indexTitle: nil, count: 4)], keys: [.min, -1, 0, .max]),
    ])
    func roundTrips(contents: SectionCacheContents) throws {
        #expect(try SectionCacheFile.decode(SectionCacheFile.encode(contents)) == contents)
    }

    @Test func aMillionRowKeysRoundTrip() throws {
        var random = SplitMix64(seed: 1_000_000)
        let keys = (0..<1_000_000).map { _ in Int64(bitPattern: random.next()) }
        let contents = Self.contents(sections: [Section(name: "a", indexTitle: nil, count: 400_000),
                                                Section(name: "b", indexTitle: nil, count: 600_000)], keys: keys)
        let data = SectionCacheFile.encode(contents)
        #expect(try SectionCacheFile.decode(data) == contents)
    }

    /// A file read into the middle of a larger buffer decodes the same.
    @Test func decodesASliceOfData() throws {
        let data = Data([1, 2, 3]) + SectionCacheFile.encode(Self.small)
        #expect(try SectionCacheFile.decode(data.dropFirst(3)) == Self.small)
    }

    // MARK: Damage

    @Test func everyChangedByteIsRefused() {
        let data = SectionCacheFile.encode(Self.small)
        for index in data.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = data
                damaged[index] ^= mask
                #expect(decodeError(damaged) != nil, "byte \(index) ^ \(mask) was accepted")
            }
        }
    }

    @Test func everyTruncationIsRefusedAndSaysWhere() {
        let data = SectionCacheFile.encode(Self.small)
        for length in 0..<data.count {
            let error = decodeError(data.prefix(length))
            guard case .truncated(let offset, let needed) = error else {
                Issue.record("a file cut to \(length) bytes gave \(String(describing: error))")
                continue
            }
            #expect(offset == length && needed > 0)
            #expect(error?.description.contains("truncated at byte \(length)") == true)
        }
    }

    @Test func headerProblemsAreNamed() {
        let data = SectionCacheFile.encode(Self.small)
        var magic = data
        magic[0] = UInt8(ascii: "X")
        #expect(decodeError(magic) == .badMagic)
        #expect(decodeError(Data("PNG".utf8)) == .badMagic)
        var version = data
        version[8] = 2
        #expect(decodeError(version) == .unsupportedVersion(2))
        #expect(decodeError(data + [0, 0]) == .trailingBytes(count: 2))
        var payload = data
        payload[payload.count - 1] ^= 1
        guard case .checksumMismatch = decodeError(payload) else {
            Issue.record("a changed payload byte was not a checksum mismatch")
            return
        }
    }

    // MARK: Hostile payloads with valid checksums

    /// Little-endian payload bytes.
    struct Payload {
        var bytes: [UInt8] = []

        mutating func int<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }

        mutating func string(_ text: String) {
            int(UInt32(text.utf8.count))
            bytes += text.utf8
        }

        mutating func raw(_ more: [UInt8]) {
            bytes += more
        }

        /// The payload behind a valid header, checksum included.
        var sealed: Data {
            var data = SectionCacheFile.magic
            withUnsafeBytes(of: SectionCacheFile.version.littleEndian) { data += $0 }
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { data += $0 }
            withUnsafeBytes(of: bytes.withUnsafeBytes { FNV1a.hash($0) }.littleEndian) { data += $0 }
            return Data(data + bytes)
        }
    }

    /// The start of a payload: configuration, store identifier, generation.
    private func prefix() -> Payload {
        var payload = Payload()
        payload.string("config")
        payload.string("store")
        payload.int(Int64(1))
        return payload
    }

    @Test func negativeCountsAreNamed() {
        var sections = prefix()
        sections.int(Int64(-1))
        #expect(decodeError(sections.sealed) == .negativeCount(field: "section count", value: -1))

        var rows = prefix()
        rows.int(Int64(1))
        rows.string("a")
        rows.raw([0])
        rows.int(Int64(-5))
        #expect(decodeError(rows.sealed) == .negativeCount(field: "row count of section 0", value: -5))

        var total = prefix()
        total.int(Int64(0))
        total.int(Int64.min)
        #expect(decodeError(total.sealed) == .negativeCount(field: "row count", value: .min))
    }

    @Test func countsThatDoNotAddUpAreNamed() {
        var payload = prefix()
        payload.int(Int64(2))
        for count: Int64 in [2, 2] {
            payload.string("s")
            payload.raw([0])
            payload.int(count)
        }
        payload.int(Int64(3))
        for key: Int64 in [1, 2, 3] { payload.int(key) }
        let error = decodeError(payload.sealed)
        #expect(error == .countMismatch(sectionTotal: 4, rowCount: 3))
        #expect(error?.description.contains("add up to 4") == true)

        // Section counts whose sum overflows are reported, not trapped on.
        var overflowing = prefix()
        overflowing.int(Int64(2))
        for count in [Int64.max, Int64.max] {
            overflowing.string("s")
            overflowing.raw([0])
            overflowing.int(count)
        }
        overflowing.int(Int64(0))
        #expect(decodeError(overflowing.sealed) == .countMismatch(sectionTotal: .max, rowCount: 0))
    }

    @Test func invalidUTF8IsNamed() {
        var payload = Payload()
        payload.int(UInt32(2))
        payload.raw([0xC3, 0x28])
        let error = decodeError(payload.sealed)
        #expect(error == .invalidUTF8(field: "configuration", atByte: SectionCacheFile.headerSize + 4))
    }

    @Test func anUnknownTitleMarkerIsNamed() {
        var payload = prefix()
        payload.int(Int64(1))
        payload.string("s")
        let markerOffset = SectionCacheFile.headerSize + payload.bytes.count
        payload.raw([2])
        payload.int(Int64(0))
        payload.int(Int64(0))
        #expect(decodeError(payload.sealed) == .invalidTitleMarker(2, atByte: markerOffset))
    }

    /// Lengths and counts far beyond the file are refused before anything is allocated for them.
    @Test func hugeLengthsAndCountsAreRefusedWithoutAllocating() {
        var string = Payload()
        string.int(UInt32.max)
        string.raw(Array("short".utf8))
        #expect(decodeError(string.sealed) == .truncated(atByte: SectionCacheFile.headerSize + 9, needed: Int(UInt32.max) - 5))

        for count in [Int64.max, Int64(1) << 40, 1] {
            var sections = prefix()
            sections.int(count)
            guard case .truncated = decodeError(sections.sealed) else {
                Issue.record("\(count) sections in an empty rest of file were not refused as truncated")
                continue
            }
            var rows = prefix()
            rows.int(Int64(0))
            rows.int(count)
            rows.raw([1, 2, 3, 4, 5, 6, 7])
            guard case .truncated = decodeError(rows.sealed) else {
                Issue.record("\(count) rows in 7 bytes were not refused as truncated")
                continue
            }
        }
        var header = Data(SectionCacheFile.encode(Self.small).prefix(SectionCacheFile.headerSize))
        header.replaceSubrange(12..<20, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(decodeError(header) == .truncated(atByte: SectionCacheFile.headerSize, needed: .max))
    }

    @Test func randomBytesNeverDecode() {
        var random = SplitMix64(seed: 0xBAD_F11E)
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<200, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            // Mostly with a valid header, so that the payload parser sees the garbage.
            if Bool.random(using: &random) {
                var payload = Payload()
                payload.raw(bytes)
                bytes = Array(payload.sealed)
            }
            if let contents = try? SectionCacheFile.decode(Data(bytes)) {
                // Whatever decodes must be consistent, and encode back to the same bytes.
                #expect(contents.sections.reduce(0) { $0 + $1.count } == contents.rowKeys.count)
                #expect(SectionCacheFile.encode(contents) == Data(bytes))
            }
        }
    }
}
