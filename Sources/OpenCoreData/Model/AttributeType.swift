/// The type of an attribute's values, with Core Data's `NSAttributeType` names and raw values.
///
/// ```swift
/// let wins = AttributeDescription()
/// wins.name = "wins"
/// wins.attributeType = .integer16AttributeType   // or the short form `.integer16`
/// ```
///
/// Each type has one Swift type that ``ManagedObject/value(forKey:)`` returns and that typed
/// `@Managed` properties use: `Int16`, `Int32`, `Int64` (or `Int`), `Double`, `Float`, `Decimal`,
/// `String`, `Bool`, `Date`, `Data`, `UUID` and `URL`; a transformable attribute holds whatever
/// its value transformer reads and writes. Numbers and booleans come back from
/// `value(forKey:)` as `NSNumber`, as they do in Core Data, so `as? Int` works whatever the width.
public enum AttributeType: UInt, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    /// A value of any type, kept as the `Data` a value transformer makes of it (see
    /// ``AttributeDescription/valueTransformerName``).
    case transformableAttributeType = 1800

    public static var integer16: AttributeType { .integer16AttributeType }
    public static var integer32: AttributeType { .integer32AttributeType }
    public static var integer64: AttributeType { .integer64AttributeType }
    public static var decimal: AttributeType { .decimalAttributeType }
    public static var double: AttributeType { .doubleAttributeType }
    public static var float: AttributeType { .floatAttributeType }
    public static var string: AttributeType { .stringAttributeType }
    public static var boolean: AttributeType { .booleanAttributeType }
    public static var date: AttributeType { .dateAttributeType }
    public static var binaryData: AttributeType { .binaryDataAttributeType }
    public static var uuid: AttributeType { .UUIDAttributeType }
    public static var uri: AttributeType { .URIAttributeType }
    public static var transformable: AttributeType { .transformableAttributeType }

    /// A short name for messages and the stored schema: `integer16`, `string`, `uuid`, ...
    public var description: String {
        switch self {
        case .integer16AttributeType: "integer16"
        case .integer32AttributeType: "integer32"
        case .integer64AttributeType: "integer64"
        case .decimalAttributeType: "decimal"
        case .doubleAttributeType: "double"
        case .floatAttributeType: "float"
        case .stringAttributeType: "string"
        case .booleanAttributeType: "boolean"
        case .dateAttributeType: "date"
        case .binaryDataAttributeType: "binaryData"
        case .UUIDAttributeType: "uuid"
        case .URIAttributeType: "uri"
        case .transformableAttributeType: "transformable"
        }
    }

    /// The type stores keep the value as: a transformable value is kept as the data its
    /// transformer makes.
    package var storedType: AttributeType {
        self == .transformableAttributeType ? .binaryDataAttributeType : self
    }

    var isInteger: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: true
        default: false
        }
    }

    /// The inclusive range an integer attribute accepts.
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
        case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
        case .integer64AttributeType: Int64.min...Int64.max
        default: nil
        }
    }
}
