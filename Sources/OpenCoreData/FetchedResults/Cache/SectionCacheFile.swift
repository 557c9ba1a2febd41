package import Foundation

/// The binary format of a section cache file, version 1. Integers are little-endian.
///
/// | Offset | Size | Field                                                  |
/// |--------|------|--------------------------------------------------------|
/// | 0      | 8    | magic, the ASCII bytes `OCDSECTS`                      |
/// | 8      | 4    | format version, UInt32 (1)                             |
/// | 12     | 8    | payload length in bytes, UInt64                        |
/// | 20     | 8    | checksum: FNV-1a 64 of the payload bytes, UInt64       |
/// | 28     | …    | payload, exactly as long as announced                  |
///
/// The payload, in order: the configuration (string); the store identifier (string); the store
/// generation (Int64); the section count S (Int64); S sections, each a name (string), an
/// index-title marker (UInt8: 0 none, 1 present), the index title if present (string) and the
/// section's row count (Int64); the row count R (Int64); R row keys (Int64 each). A string is
/// its UTF-8 length in bytes (UInt32) followed by the bytes.
///
/// Every header field is checked exactly and the checksum covers the payload, so a changed byte
/// anywhere makes decoding fail rather than return other contents. Counts are signed so that a
/// negative one is reported as such.
package enum SectionCacheFile {
    static let magic: [UInt8] = Array("OCDSECTS".utf8)
    package static let version: UInt32 = 1
    static let headerSize = 28
    /// The smallest encoded section: an empty name, no title, a count.
    static let minimumSectionSize = 4 + 1 + 8

    /// The file for `contents`. Contents whose counts do not partition the row keys encode, but
    /// do not decode. A string longer than 4 GiB is cut (and then does not decode either).
    package static func encode(_ contents: SectionCacheContents) -> Data {
        var bytes: [UInt8] = []
        let strings = contents.configuration.utf8.count + contents.storeIdentifier.utf8.count
            + contents.sections.reduce(0) { $0 + $1.name.utf8.count + ($1.indexTitle?.utf8.count ?? 0) }
        bytes.reserveCapacity(headerSize + 40 + strings + contents.sections.count * 17 + contents.rowKeys.count * 8)
        bytes += magic
        append(version, to: &bytes)
        append(UInt64(0), to: &bytes)
        append(UInt64(0), to: &bytes)
        appendString(contents.configuration, to: &bytes)
        appendString(contents.storeIdentifier, to: &bytes)
        append(contents.storeGeneration, to: &bytes)
        append(Int64(contents.sections.count), to: &bytes)
        for section in contents.sections {
            appendString(section.name, to: &bytes)
            if let title = section.indexTitle {
                bytes.append(1)
                appendString(title, to: &bytes)
            } else {
                bytes.append(0)
            }
            append(Int64(section.count), to: &bytes)
        }
        append(Int64(contents.rowKeys.count), to: &bytes)
        #if _endian(little)
        contents.rowKeys.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        for key in contents.rowKeys { append(key, to: &bytes) }
        #endif
        bytes.withUnsafeMutableBytes { buffer in
            let payload = UnsafeRawBufferPointer(rebasing: buffer[headerSize...])
            buffer.storeBytes(of: UInt64(payload.count).littleEndian, toByteOffset: 12, as: UInt64.self)
            buffer.storeBytes(of: FNV1a.hash(payload).littleEndian, toByteOffset: 20, as: UInt64.self)
        }
        return Data(bytes)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = string.utf8
        let length = UInt32(clamping: utf8.count)
        append(length, to: &bytes)
        bytes.append(contentsOf: utf8.prefix(Int(length)))
    }
}
