import Foundation

extension PropertyValue {
    /// Orders two values of one attribute as the stores order them: nil before any value, numbers
    /// by value, strings and data by their bytes (SQLite's BINARY collation), dates by time,
    /// decimals by value.
    ///
    /// - Returns: A negative number, zero or a positive number.
    package static func compare(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return order(a, b)
        case (.boolean(let a), .boolean(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.decimal(let a), .decimal(let b)): return order(a, b)
        case (.date(let a), .date(let b)): return order(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.string(let a), .string(let b)): return utf8Order(a, b)
        case (.uri(let a), .uri(let b)): return bytes(a.absoluteString.utf8, b.absoluteString.utf8)
        // URLs compare with strings as their text, as the store compares the TEXT columns.
        case (.uri(let a), .string(let b)): return bytes(a.absoluteString.utf8, b.utf8)
        case (.string(let a), .uri(let b)): return bytes(a.utf8, b.absoluteString.utf8)
        case (.data(let a), .data(let b)): return bytes(a, b)
        case (.uuid(let a), .uuid(let b)): return bytes(a.bytes, b.bytes)
        case (.object(let a), .object(let b)): return order(a.key, b.key)
        default:
            if let a = lhs.integerValue, let b = rhs.integerValue { return order(a, b) }
            if let a = lhs.integerValue, case .double(let b) = rhs { return -compare(b, a) }
            if case .double(let a) = lhs, let b = rhs.integerValue { return compare(a, b) }
            if case .decimal(let a) = lhs, let b = rhs.integerValue { return order(a, Decimal(b)) }
            if let a = lhs.integerValue, case .decimal(let b) = rhs { return order(Decimal(a), b) }
            if let a = lhs.numericValue, let b = rhs.numericValue { return order(a, b) }
            return order(lhs.typeRank, rhs.typeRank)
        }
    }

    /// A double against an integer, exactly (as SQLite compares REAL with INTEGER), even where
    /// the integer has no exact double.
    private static func compare(_ double: Double, _ integer: Int64) -> Int {
        if double.isNaN { return -1 }
        if double >= 9_223_372_036_854_775_808.0 { return 1 }
        if double < -9_223_372_036_854_775_808.0 { return -1 }
        let whole = Int64(double.rounded(.down))
        if whole != integer { return whole < integer ? -1 : 1 }
        return double > Double(whole) ? 1 : 0
    }

    private var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .boolean(let value): value ? 1 : 0
        default: nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int {
        a < b ? -1 : (a == b ? 0 : 1)
    }

    /// Strings by their UTF-8 bytes, compared in place: sort-key comparisons are mostly of strings
    /// with a long common prefix, where walking two iterators costs several times more.
    private static func utf8Order(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index] ? -1 : 1
                }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
    }

    private static func bytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// The value as a number, for numbers and booleans; nil for the other kinds.
    var numericValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .boolean(let value): value ? 1 : 0
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        default: nil
        }
    }

    /// The text of a string or URL, for string operators and `[c]`/`[d]` comparisons.
    package var text: String? {
        switch self {
        case .string(let string): string
        case .uri(let url): url.absoluteString
        default: nil
        }
    }

    private var typeRank: Int {
        switch self {
        case .null: 0
        case .integer, .double, .boolean, .decimal: 1
        case .date: 2
        case .string, .uri: 3
        case .data, .uuid: 4
        case .object: 5
        }
    }
}

extension UUID {
    /// The UUID's 16 bytes, in order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
