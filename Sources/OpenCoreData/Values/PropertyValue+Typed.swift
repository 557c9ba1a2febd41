import Foundation

/// Typed `@Managed` values to and from their stored form without going through `Any`: a property
/// of `Int32` or `String?` is converted by a switch on its type, where boxing the value and
/// casting it back cost more than the rest of a property access. Types and attribute types that
/// do not pair up this simply answer nil, and the general conversions take over.
extension PropertyValue {
    /// The stored form of `value` for an attribute of `type`, when `Value` is the attribute's own
    /// Swift type or its optional; nil otherwise (and for a string holding NUL, which the general
    /// conversion refuses with its reason, and for NaN, which it refuses too).
    static func typedStorage<Value>(of value: Value, for type: AttributeType) -> PropertyValue? {
        switch type {
        case .stringAttributeType:
            if let text = exactly(value, as: String.self) { return text.containsNUL ? nil : .string(text) }
            if let text = exactly(value, as: String?.self) { return text.map { $0.containsNUL ? nil : .string($0) } ?? .null }
        case .integer16AttributeType:
            if let number = exactly(value, as: Int16.self) { return .integer(Int64(number)) }
            if let number = exactly(value, as: Int16?.self) { return number.map { .integer(Int64($0)) } ?? .null }
        case .integer32AttributeType:
            if let number = exactly(value, as: Int32.self) { return .integer(Int64(number)) }
            if let number = exactly(value, as: Int32?.self) { return number.map { .integer(Int64($0)) } ?? .null }
        case .integer64AttributeType:
            if let number = exactly(value, as: Int64.self) { return .integer(number) }
            if let number = exactly(value, as: Int.self) { return .integer(Int64(number)) }
            if let number = exactly(value, as: Int64?.self) { return number.map { .integer($0) } ?? .null }
            if let number = exactly(value, as: Int?.self) { return number.map { .integer(Int64($0)) } ?? .null }
        case .doubleAttributeType:
            if let number = exactly(value, as: Double.self) { return number.isNaN ? nil : .double(number) }
            if let number = exactly(value, as: Double?.self) { return number.map { $0.isNaN ? nil : .double($0) } ?? .null }
        case .floatAttributeType:
            if let number = exactly(value, as: Float.self) { return number.isNaN ? nil : .double(Double(number)) }
            if let number = exactly(value, as: Float?.self) { return number.map { $0.isNaN ? nil : .double(Double($0)) } ?? .null }
        case .booleanAttributeType:
            if let flag = exactly(value, as: Bool.self) { return .boolean(flag) }
            if let flag = exactly(value, as: Bool?.self) { return flag.map { .boolean($0) } ?? .null }
        case .dateAttributeType:
            if let date = exactly(value, as: Date.self) { return .date(date) }
            if let date = exactly(value, as: Date?.self) { return date.map { .date($0) } ?? .null }
        default:
            break
        }
        return nil
    }

    /// The value a `@Managed` property of type `Value` reads, when `Value` is the attribute's own
    /// Swift type or its optional and the stored value has the expected form; nil otherwise.
    /// A required property whose value is missing reads as its type's zero, as through `Any`.
    func typedValue<Value>(as type: Value.Type, for attributeType: AttributeType) -> Value? {
        switch (self, attributeType) {
        case (.string(let text), .stringAttributeType):
            return exactly(text, as: Value.self) ?? exactly(String?.some(text), as: Value.self)
        case (.integer(let number), .integer16AttributeType):
            let narrow = Int16(truncatingIfNeeded: number)
            return exactly(narrow, as: Value.self) ?? exactly(Int16?.some(narrow), as: Value.self)
        case (.integer(let number), .integer32AttributeType):
            let narrow = Int32(truncatingIfNeeded: number)
            return exactly(narrow, as: Value.self) ?? exactly(Int32?.some(narrow), as: Value.self)
        case (.integer(let number), .integer64AttributeType):
            return exactly(number, as: Value.self) ?? exactly(Int64?.some(number), as: Value.self)
                ?? exactly(Int(number), as: Value.self) ?? exactly(Int?.some(Int(number)), as: Value.self)
        case (.double(let number), .doubleAttributeType):
            return exactly(number, as: Value.self) ?? exactly(Double?.some(number), as: Value.self)
        case (.double(let number), .floatAttributeType):
            return exactly(Float(number), as: Value.self) ?? exactly(Float?.some(Float(number)), as: Value.self)
        case (.boolean(let flag), .booleanAttributeType):
            return exactly(flag, as: Value.self) ?? exactly(Bool?.some(flag), as: Value.self)
        case (.date(let date), .dateAttributeType):
            return exactly(date, as: Value.self) ?? exactly(Date?.some(date), as: Value.self)
        default:
            return nil
        }
    }
}

/// `value` as a `Target` when that is exactly its type: a comparison of type metadata, not a cast.
@inline(__always)
private func exactly<Value, Target>(_ value: Value, as target: Target.Type) -> Target? {
    guard Value.self == Target.self else { return nil }
    return unsafeBitCast(value, to: Target.self)
}
