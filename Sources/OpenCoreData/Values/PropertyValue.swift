package import Foundation

/// One persistent value, normalised: what snapshots, stores and change sets carry.
///
/// Integers of every width are `integer`, `float` attributes are held as `double` (a `Float`
/// round-trips exactly through `Double`), and a to-one relationship in a snapshot is the
/// destination's object ID. The attribute's declared ``AttributeType`` says how to turn it back
/// into a Swift value.
package enum PropertyValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    case object(ManagedObjectID)

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    package var objectID: ManagedObjectID? {
        if case .object(let id) = self { return id }
        return nil
    }
}

extension PropertyValue {
    /// Converts a value given through key-value coding to an attribute's storage form, or
    /// returns nil when the value cannot be stored in an attribute of that type.
    ///
    /// Accepts what Core Data accepts: any integer type or `NSNumber` for numbers and booleans
    /// (integers must fit the attribute's width), `Substring`/`NSString` for strings,
    /// `[UInt8]` for data, and `nil`/`NSNull` for no value.
    package static func coerce(_ value: Any?, to type: AttributeType) -> PropertyValue? {
        if let exact = exactStorage(of: value, for: type) { return exact }
        guard let value = flattenOptional(value), !(value is NSNull) else { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = exactInteger(value), let range = type.integerRange,
                  range.contains(integer) else { return nil }
            return .integer(integer)
        case .doubleAttributeType:
            return floatingValue(value).map { .double($0) }
        case .floatAttributeType:
            return floatingValue(value).map { .double(Double(Float($0))) }
        case .decimalAttributeType:
            return decimalValue(value).map { .decimal($0) }
        case .booleanAttributeType:
            if let bool = value as? Bool { return .boolean(bool) }
            if let integer = exactInteger(value), integer == 0 || integer == 1 { return .boolean(integer == 1) }
            return nil
        case .stringAttributeType:
            let text = (value as? String) ?? (value as? Substring).map(String.init)
            guard let text, !text.containsNUL else { return nil }
            return .string(text)
        case .dateAttributeType:
            return (value as? Date).map { .date($0) }
        case .binaryDataAttributeType:
            if let data = value as? Data { return .data(data) }
            if let bytes = value as? [UInt8] { return .data(Data(bytes)) }
            return nil
        case .UUIDAttributeType:
            return (value as? UUID).map { .uuid($0) }
        case .URIAttributeType:
            return (value as? URL).map { .uri($0) }
        }
    }

    /// The storage form of a value that has exactly the attribute's own Swift type, as typed
    /// `@Managed` properties pass: one type comparison and one cast, where the general conversions
    /// below try several casts to protocols, which cost more than the rest of a property write.
    /// Nil when the value is of another type (or is a string holding NUL), for `coerce` to decide.
    private static func exactStorage(of value: Any?, for type: AttributeType) -> PropertyValue? {
        guard let value else { return nil }
        let valueType = Swift.type(of: value)
        switch type {
        case .stringAttributeType where valueType == String.self:
            guard let text = value as? String, !text.containsNUL else { return nil }
            return .string(text)
        case .integer16AttributeType where valueType == Int16.self:
            return (value as? Int16).map { .integer(Int64($0)) }
        case .integer32AttributeType where valueType == Int32.self:
            return (value as? Int32).map { .integer(Int64($0)) }
        case .integer64AttributeType where valueType == Int64.self:
            return (value as? Int64).map { .integer($0) }
        case .integer64AttributeType where valueType == Int.self:
            return (value as? Int).map { .integer(Int64($0)) }
        case .doubleAttributeType where valueType == Double.self:
            return (value as? Double).map { .double($0) }
        case .floatAttributeType where valueType == Float.self:
            return (value as? Float).map { .double(Double($0)) }
        case .booleanAttributeType where valueType == Bool.self:
            return (value as? Bool).map { .boolean($0) }
        case .dateAttributeType where valueType == Date.self:
            return (value as? Date).map { .date($0) }
        default:
            return nil
        }
    }

    /// Why `value` cannot be stored in an attribute of `type`, in words, for error messages.
    package static func refusal(of value: Any?, for attributeType: AttributeType) -> String {
        let unwrapped = flattenOptional(value)
        if attributeType == .stringAttributeType, let text = unwrapped as? String, text.containsNUL {
            return "the string contains a NUL character (U+0000), which stores cannot hold without truncating it"
        }
        let shown = unwrapped.map { "\(type(of: $0)) value \(String(describing: $0))" } ?? "nil"
        return "\(shown) is not a valid \(attributeType)"
    }

    /// The value as Core Data's key-value coding returns it: `NSNumber` for numbers and
    /// booleans (so `as? Int`, `as? Int16` and `as? Double` all work), `NSDecimalNumber` for
    /// decimals, and the Swift value otherwise.
    package func boxedValue(for type: AttributeType) -> Any? {
        switch self {
        case .null: return nil
        case .integer(let integer):
            switch type {
            case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: integer))
            case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: integer))
            case .booleanAttributeType: return NSNumber(value: integer != 0)
            default: return NSNumber(value: integer)
            }
        case .double(let double):
            return type == .floatAttributeType ? NSNumber(value: Float(double)) : NSNumber(value: double)
        case .boolean(let bool): return NSNumber(value: bool)
        case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
        case .string(let string): return string
        case .date(let date): return date
        case .data(let data): return data
        case .uuid(let uuid): return uuid
        case .uri(let url): return url
        case .object(let id): return id
        }
    }

    /// The value as the attribute's own Swift type (`Int16` for integer 16, ...), for typed
    /// properties.
    package func swiftValue(for type: AttributeType) -> Any? {
        switch (self, type) {
        case (.null, _): nil
        case (.integer(let integer), .integer16AttributeType): Int16(truncatingIfNeeded: integer)
        case (.integer(let integer), .integer32AttributeType): Int32(truncatingIfNeeded: integer)
        case (.integer(let integer), _): integer
        case (.double(let double), .floatAttributeType): Float(double)
        case (.double(let double), _): double
        case (.boolean(let bool), _): bool
        case (.decimal(let decimal), _): decimal
        case (.string(let string), _): string
        case (.date(let date), _): date
        case (.data(let data), _): data
        case (.uuid(let uuid), _): uuid
        case (.uri(let url), _): url
        case (.object(let id), _): id
        }
    }
}

// MARK: - Coercion helpers

private protocol AnyOptional {
    var flattened: Any? { get }
}

extension Optional: AnyOptional {
    fileprivate var flattened: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): flattenOptional(wrapped)
        }
    }
}

/// Unwraps optionals hidden inside `Any` (`Optional<Int>.none as Any` is not `nil`).
func flattenOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any AnyOptional { return optional.flattened }
    return value
}

private func exactInteger(_ value: Any) -> Int64? {
    if value is Bool { return nil }
    if let integer = value as? any BinaryInteger { return Int64(exactly: integer) }
    if let number = value as? NSNumber, !(value is Double), !(value is Float) {
        if let integer = number as? Int64 { return integer }
        return nil
    }
    return nil
}

private func floatingValue(_ value: Any) -> Double? {
    if value is Bool { return nil }
    if let double = value as? Double { return double }
    if let float = value as? Float { return Double(float) }
    if let integer = value as? any BinaryInteger { return Double(integer) }
    if let decimal = value as? Decimal { return NSDecimalNumber(decimal: decimal).doubleValue }
    if let number = value as? NSNumber { return number.doubleValue }
    return nil
}

private func decimalValue(_ value: Any) -> Decimal? {
    if value is Bool { return nil }
    if let decimal = value as? Decimal { return decimal }
    if let integer = value as? any BinaryInteger, let wide = Int64(exactly: integer) { return Decimal(wide) }
    if let double = value as? Double { return Decimal(double) }
    if let float = value as? Float { return Decimal(Double(float)) }
    if let number = value as? NSDecimalNumber { return number.decimalValue }
    if let number = value as? NSNumber { return number.decimalValue }
    return nil
}

extension String {
    /// Whether the string holds U+0000, which SQLite text (bound as C strings) would cut short.
    var containsNUL: Bool {
        // A scan of the bytes in place: the generic scan of the UTF-8 view cost a third of a
        // typed property write.
        utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
    }
}
