public import Foundation

/// A type a `@Managed` property can have: an attribute type (`Int16`, `String`, `Date`, ...), an
/// optional one, an optional ``ManagedObject`` subclass (to-one), a `Set` of one (to-many) or an
/// `Array` of one (ordered to-many).
///
/// The requirements are implementation details; every conforming type is listed here and
/// users do not add conformances.
public protocol ManagedPropertyValue {
    /// How the property is stored. Not API.
    static var _managedKind: _ManagedPropertyKind { get }
    /// Builds the property's value from what the object holds. Not API.
    static func _fromManaged(_ stored: Any?) -> Self
    /// What the object holds for this value. Not API.
    var _toManaged: Any? { get }
}

/// A type that may appear inside `Optional` in a `@Managed` property. Not API.
public protocol _ManagedOptionalWrappable {
    static var _managedWrappedKind: _ManagedPropertyKind { get }
    static func _fromManagedNonNil(_ stored: Any) -> Self?
    var _toManagedNonNil: Any { get }
}

/// How a `@Managed` property is stored. Not API.
public enum _ManagedPropertyKind {
    case attribute(AttributeType, isOptional: Bool)
    /// `NSNumber`: a number or Boolean attribute of whatever type the model file gives.
    case number(isOptional: Bool)
    /// A ``ManagedCodableValue``: a transformable attribute kept as JSON.
    case codable(any ManagedCodableValue.Type)
    case toOne(ManagedObject.Type)
    case toMany(ManagedObject.Type)
    /// An array of objects: an ordered to-many relationship.
    case orderedToMany(ManagedObject.Type)
}

/// An attribute type usable in `@Managed` properties. Not API.
public protocol _ManagedAttributeScalar: ManagedPropertyValue, _ManagedOptionalWrappable {
    static var _attributeType: AttributeType { get }
    /// What a non-optional property reads when the stored value is nil (a required value that
    /// was never set); saving such an object fails validation.
    static var _zero: Self { get }
}

extension _ManagedAttributeScalar {
    public static var _managedKind: _ManagedPropertyKind { .attribute(_attributeType, isOptional: false) }
    public static var _managedWrappedKind: _ManagedPropertyKind { .attribute(_attributeType, isOptional: true) }
    public static func _fromManaged(_ stored: Any?) -> Self { stored.flatMap(_fromManagedNonNil) ?? _zero }
    public static func _fromManagedNonNil(_ stored: Any) -> Self? { stored as? Self }
    public var _toManaged: Any? { self }
    public var _toManagedNonNil: Any { self }
}

extension Int16: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .integer16AttributeType }
    public static var _zero: Int16 { 0 }
}

extension Int32: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .integer32AttributeType }
    public static var _zero: Int32 { 0 }
}

extension Int64: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .integer64AttributeType }
    public static var _zero: Int64 { 0 }
}

extension Int: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .integer64AttributeType }
    public static var _zero: Int { 0 }
    public static func _fromManagedNonNil(_ stored: Any) -> Int? { (stored as? Int64).flatMap { Int(exactly: $0) } }
}

extension Double: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .doubleAttributeType }
    public static var _zero: Double { 0 }
}

extension Float: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .floatAttributeType }
    public static var _zero: Float { 0 }
}

extension Decimal: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .decimalAttributeType }
    public static var _zero: Decimal { 0 }
}

extension String: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .stringAttributeType }
    public static var _zero: String { "" }
}

extension Bool: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .booleanAttributeType }
    public static var _zero: Bool { false }
}

extension Date: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .dateAttributeType }
    public static var _zero: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .binaryDataAttributeType }
    public static var _zero: Data { Data() }
}

extension UUID: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .UUIDAttributeType }
    public static var _zero: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: _ManagedAttributeScalar {
    public static var _attributeType: AttributeType { .URIAttributeType }
    public static var _zero: URL { URL(fileURLWithPath: "/") }
}

extension Optional: ManagedPropertyValue where Wrapped: _ManagedOptionalWrappable {
    public static var _managedKind: _ManagedPropertyKind { Wrapped._managedWrappedKind }
    public static func _fromManaged(_ stored: Any?) -> Wrapped? { stored.flatMap(Wrapped._fromManagedNonNil) }
    public var _toManaged: Any? { self.map(\._toManagedNonNil) }
}

/// `@Managed var count: NSNumber?`, as Xcode generates `@NSManaged` numbers that do not "Use
/// Scalar Type": the attribute's type (integer, floating-point, decimal or Boolean) comes from
/// the model file the class is bound to.
extension NSNumber: _ManagedOptionalWrappable {
    public static var _managedWrappedKind: _ManagedPropertyKind { .number(isOptional: true) }

    public static func _fromManagedNonNil(_ stored: Any) -> Self? {
        let number: NSNumber? = switch stored {
        case let number as NSNumber: number
        case let value as Int16: NSNumber(value: value)
        case let value as Int32: NSNumber(value: value)
        case let value as Int64: NSNumber(value: value)
        case let value as Int: NSNumber(value: value)
        case let value as Double: NSNumber(value: value)
        case let value as Float: NSNumber(value: value)
        case let value as Bool: NSNumber(value: value)
        case let value as Decimal: NSDecimalNumber(decimal: value)
        default: nil
        }
        return number as? Self
    }

    public var _toManagedNonNil: Any { self }
}

extension ManagedObject: _ManagedOptionalWrappable {
    public static var _managedWrappedKind: _ManagedPropertyKind { .toOne(self) }
    public static func _fromManagedNonNil(_ stored: Any) -> Self? { stored as? Self }
    public var _toManagedNonNil: Any { self }
}

extension Set: ManagedPropertyValue where Element: ManagedObject {
    public static var _managedKind: _ManagedPropertyKind { .toMany(Element.self) }
    public static func _fromManaged(_ stored: Any?) -> Set<Element> {
        guard let objects = stored as? Set<ManagedObject> else { return [] }
        return Set(objects.compactMap { $0 as? Element })
    }
    public var _toManaged: Any? { Set<ManagedObject>(self.map { $0 as ManagedObject }) }
}

extension Array: ManagedPropertyValue where Element: ManagedObject {
    public static var _managedKind: _ManagedPropertyKind { .orderedToMany(Element.self) }
    public static func _fromManaged(_ stored: Any?) -> [Element] {
        if let objects = stored as? [ManagedObject] { return objects.compactMap { $0 as? Element } }
        guard let objects = stored as? Set<ManagedObject> else { return [] }
        return objects.sorted { $0.objectID.key < $1.objectID.key }.compactMap { $0 as? Element }
    }
    public var _toManaged: Any? { self.map { $0 as ManagedObject } }
}
