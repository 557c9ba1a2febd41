/// Why a section cache file could not be used. The controller treats every case as a cache miss
/// and fetches; the description says what was wrong, for the log.
package enum SectionCacheError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file does not start with the format's magic bytes.
    case badMagic
    /// The file is of a format version this library does not read.
    case unsupportedVersion(UInt32)
    /// The file ends at byte `atByte` where `needed` more bytes were expected.
    case truncated(atByte: Int, needed: Int)
    /// The file goes on after the payload its header announces.
    case trailingBytes(count: Int)
    /// The payload does not have the checksum the header records.
    case checksumMismatch(stored: UInt64, computed: UInt64)
    /// A count (of sections, of rows, or a section's) is negative.
    case negativeCount(field: String, value: Int64)
    /// The section counts do not add up to the number of rows.
    case countMismatch(sectionTotal: Int64, rowCount: Int64)
    /// A string field is not valid UTF-8.
    case invalidUTF8(field: String, atByte: Int)
    /// A section's index-title marker is neither 0 (none) nor 1 (present).
    case invalidTitleMarker(UInt8, atByte: Int)
    /// The file exists but could not be read.
    case unreadable(String)
    /// What is in the file's place is not a regular file (a FIFO, a device, a directory, a
    /// symbolic link, which is not followed); `kind` says what it is.
    case notARegularFile(kind: String)
    /// The file is larger than a cache is allowed to be, and was not read.
    case tooLarge(size: Int64, limit: Int64)

    package var description: String {
        switch self {
        case .badMagic:
            "not a section cache file (bad magic bytes)"
        case .unsupportedVersion(let version):
            "section cache format version \(version) is not supported (this library reads version \(SectionCacheFile.version))"
        case .truncated(let offset, let needed):
            "the section cache file is truncated at byte \(offset): \(needed) more byte(s) expected"
        case .trailingBytes(let count):
            "the section cache file has \(count) unexpected byte(s) after its payload"
        case .checksumMismatch(let stored, let computed):
            "the section cache file is damaged: checksum \(hex(computed)) does not match the stored \(hex(stored))"
        case .negativeCount(let field, let value):
            "the section cache file has a negative \(field) (\(value))"
        case .countMismatch(let total, let rows):
            "the section cache file's section counts add up to \(total) but it holds \(rows) row(s)"
        case .invalidUTF8(let field, let offset):
            "the section cache file's \(field) at byte \(offset) is not valid UTF-8"
        case .invalidTitleMarker(let marker, let offset):
            "the section cache file has index-title marker \(marker) at byte \(offset) (expected 0 or 1)"
        case .unreadable(let reason):
            "the section cache file cannot be read: \(reason)"
        case .notARegularFile(let kind):
            "the section cache file is \(kind), not a regular file; it is not read"
        case .tooLarge(let size, let limit):
            "the section cache file has \(size) bytes, more than the \(limit) a cache may have; it is not read"
        }
    }

    private func hex(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }
}
