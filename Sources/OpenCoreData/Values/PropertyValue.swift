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
    package static func coerce(_ value: Any?, to type: AttributeType) -> PropertyValue? {
        try? conversion(of: value, to: type).get()
    }

    /// Converts a value given through key-value coding to an attribute's storage form, or says
    /// why it cannot be stored there.
    ///
    /// Accepts what Core Data accepts: for numbers and booleans any Swift number, `Bool`,
    /// `Decimal` or `NSNumber`, converted when the value fits exactly (an integer attribute takes
    /// `3.0` but refuses `3.5` and values beyond its width; a boolean takes 0 and 1; floating-point
    /// attributes round as `NSNumber.doubleValue` does); `Substring`/`NSString` for strings,
    /// `[UInt8]` for data, and `nil`/`NSNull` for no value. NaN is refused: SQLite, and so Core
    /// Data's store, keeps it as NULL, which would read back as no value at all.
    package static func conversion(of value: Any?, to type: AttributeType) -> Result<PropertyValue, AttributeValueRefusal> {
        if let exact = exactStorage(of: value, for: type) { return .success(exact) }
        guard let value = flattenOptional(value), !(value is NSNull) else { return .success(.null) }
        let refused = AttributeValueRefusal(reason: "\(Swift.type(of: value)) value \(String(describing: value)) is not a valid \(type)")
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType, .booleanAttributeType:
            guard let number = NumericInput(value) else { return .failure(refused) }
            return number.stored(as: type).mapError { refusal in
                AttributeValueRefusal(reason: "\(Swift.type(of: value)) value \(String(describing: value)) \(refusal.reason)")
            }
        case .stringAttributeType:
            let text = (value as? String) ?? (value as? Substring).map(String.init)
            guard let text else { return .failure(refused) }
            guard !text.containsNUL else {
                return .failure(AttributeValueRefusal(reason: "the string contains a NUL character (U+0000), which stores cannot hold without truncating it"))
            }
            return .success(.string(text))
        case .dateAttributeType:
            return (value as? Date).map { .success(.date($0)) } ?? .failure(refused)
        case .binaryDataAttributeType, .transformableAttributeType:
            if let data = value as? Data { return .success(.data(data)) }
            if let bytes = value as? [UInt8] { return .success(.data(Data(bytes))) }
            return .failure(refused)
        case .UUIDAttributeType:
            return (value as? UUID).map { .success(.uuid($0)) } ?? .failure(refused)
        case .URIAttributeType:
            return (value as? URL).map { .success(.uri($0)) } ?? .failure(refused)
        }
    }

    /// The storage form of a value that has exactly the attribute's own Swift type, as typed
    /// `@Managed` properties pass: one type comparison and one cast, where the general conversions
    /// below try several casts to protocols, which cost more than the rest of a property write.
    /// Nil when the value is of another type (or is NaN, or a string holding NUL), for `conversion` to decide.
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
            return (value as? Double).flatMap { $0.isNaN ? nil : .double($0) }
        case .floatAttributeType where valueType == Float.self:
            return (value as? Float).flatMap { $0.isNaN ? nil : .double(Double($0)) }
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
        switch conversion(of: value, to: attributeType) {
        case .success: "\(String(describing: value)) is a valid \(attributeType)"
        case .failure(let refusal): refusal.reason
        }
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

extension String {
    /// Whether the string holds U+0000, which SQLite text (bound as C strings) would cut short.
    var containsNUL: Bool {
        // A scan of the bytes in place: the generic scan of the UTF-8 view cost a third of a
        // typed property write.
        utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
    }
}
