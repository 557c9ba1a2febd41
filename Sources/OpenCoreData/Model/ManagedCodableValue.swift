/// A `Codable` type that an optional `@Managed` property can hold, kept as JSON in a
/// transformable attribute: beyond Core Data, which needs a value transformer for such values.
///
/// Declare the conformance, then use the type as an optional property:
///
/// ```swift
/// struct Settings: Codable, ManagedCodableValue {
///     var theme: String
///     var fontSize: Int
/// }
///
/// final class Account: ManagedObject {
///     @Managed var settings: Settings?
///     @Managed var tags: [String]?          // arrays and dictionaries of Codable values conform
/// }
/// ```
///
/// Values are encoded with sorted keys, so that equal values store equal bytes. Predicates can
/// test such a property only for nil (`settings == nil`), as in Core Data, whose stores hold
/// transformed values as opaque data. Each read decodes the value again: change a copy and
/// assign it back.
///
/// When the class is bound to a model file whose attribute names a value transformer, that
/// transformer is used instead, and what it reads back must be of the property's type.
public protocol ManagedCodableValue: Codable, _ManagedOptionalWrappable {}

extension ManagedCodableValue {
    public static var _managedWrappedKind: _ManagedPropertyKind { .codable(self) }
    public static func _fromManagedNonNil(_ stored: Any) -> Self? { stored as? Self }
    public var _toManagedNonNil: Any { self }
}

extension Array: ManagedCodableValue, _ManagedOptionalWrappable where Element: Codable {}

extension Dictionary: ManagedCodableValue, _ManagedOptionalWrappable where Key: Codable, Value: Codable {}
