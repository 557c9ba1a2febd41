extension SectionCacheLocation {
    /// Escaped names longer than this (in bytes) are shortened: a path component has at most
    /// 255 bytes, and emoji take 12 each once escaped.
    static let maximumNameLength = 200

    /// A cache name as a single safe path component: every byte outside `[A-Za-z0-9._-]` becomes
    /// `%XX` (so "/", NUL and "%" itself cannot pass, and distinct names stay distinct), "" becomes
    /// "%", and "." and ".." become "%2E" and "%2E%2E". A name whose escaped form is too long
    /// keeps a prefix followed by "~" and the FNV-1a hash of the whole name ("~" appears in no
    /// other escaped name).
    package static func escapedName(_ name: String) -> String {
        var escaped: [UInt8] = []
        for byte in name.utf8 {
            if isSafe(byte) {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            }
        }
        switch escaped {
        case []: return "%"
        case Array(".".utf8): return "%2E"
        case Array("..".utf8): return "%2E%2E"
        default: break
        }
        guard escaped.count > maximumNameLength else { return String(decoding: escaped, as: UTF8.self) }
        let hash = Array(name.utf8).withUnsafeBytes { FNV1a.hash($0) }
        let digest = String(hash, radix: 16, uppercase: true)
        let suffix = "~" + String(repeating: "0", count: 16 - digest.count) + digest
        return String(decoding: escaped.prefix(maximumNameLength - suffix.utf8.count), as: UTF8.self) + suffix
    }

    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
