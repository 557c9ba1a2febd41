import Foundation

/// A number given to a numeric or boolean attribute, whatever its Swift or Foundation type.
///
/// Core Data keeps numbers in `NSNumber`, so imports through `JSONSerialization` or
/// `[String: Any]` hand it `NSNumber`s of any kind for any numeric attribute. On Linux, an
/// `NSNumber` also answers `is Double`, `is Int` and (for 0 and 1) `is Bool`, so casts cannot tell
/// what it holds: its `objCType` can. Reading the number once, by what it really holds, lets each
/// attribute type decide whether the value fits exactly.
enum NumericInput {
    case integer(Int64)
    case unsigned(UInt64)
    case floating(Double)
    case boolean(Bool)
    case decimal(Decimal)

    /// The number `value` holds, or nil when it is not a number (a string, a date, ...).
    init?(_ value: Any) {
        // Foundation's classes first: an NSNumber would pass every Swift cast below.
        if let number = value as? NSDecimalNumber, type(of: value) is NSDecimalNumber.Type {
            self = .decimal(number.decimalValue)
        } else if let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            self = Self(number)
        } else if let flag = value as? Bool {
            self = .boolean(flag)
        } else if let integer = value as? any BinaryInteger {
            if let signed = Int64(exactly: integer) {
                self = .integer(signed)
            } else if let unsigned = UInt64(exactly: integer) {
                self = .unsigned(unsigned)
            } else {
                return nil
            }
        } else if let floating = value as? any BinaryFloatingPoint {
            self = .floating(Double(floating))
        } else if let decimal = value as? Decimal {
            self = .decimal(decimal)
        } else {
            return nil
        }
    }

    private init(_ number: NSNumber) {
        switch String(cString: number.objCType) {
        case "f", "d":
            self = .floating(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            let unsigned = number.uint64Value
            self = Int64(exactly: unsigned).map(Self.integer) ?? .unsigned(unsigned)
        default:
            // "c" is both a char and, for JSON's true and false, a BOOL: as an integer it is 0 or 1
            // either way, and every attribute type below treats 0 and 1 as false and true.
            self = .integer(number.int64Value)
        }
    }

    /// The number as the storage of an attribute of `type`, or why it does not fit.
    func stored(as type: AttributeType) -> Result<PropertyValue, AttributeValueRefusal> {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = exactInteger, let range = type.integerRange, range.contains(integer) else {
                return .failure(.init(notFitting: type, because: integerProblem(for: type)))
            }
            return .success(.integer(integer))
        case .doubleAttributeType, .floatAttributeType:
            guard let double = approximateDouble else {
                return .failure(.init(notFitting: type, because: "it is not a number (NaN); Core Data's SQLite store would silently keep NULL, so it is refused: store nil in an optional attribute instead"))
            }
            guard type == .doubleAttributeType else {
                let float = Float(double)
                guard float.isFinite || !double.isFinite else {
                    return .failure(.init(notFitting: type, because: "it is beyond a float's range (±\(Float.greatestFiniteMagnitude))"))
                }
                return .success(.double(Double(float)))
            }
            return .success(.double(double))
        case .decimalAttributeType:
            guard let decimal = exactDecimal else {
                return .failure(.init(notFitting: type, because: "a decimal holds only finite numbers within about ±3.4e165, and not NaN"))
            }
            return .success(.decimal(decimal))
        case .booleanAttributeType:
            guard let integer = exactInteger, integer == 0 || integer == 1 else {
                return .failure(.init(notFitting: type, because: "a boolean takes only 0 (false) and 1 (true)"))
            }
            return .success(.boolean(integer == 1))
        default:
            return .failure(.init(notFitting: type, because: "a number is not a \(type) value"))
        }
    }

    /// The value as an integer when it is one exactly: no fraction, no rounding, within Int64.
    private var exactInteger: Int64? {
        switch self {
        case .integer(let integer): integer
        case .unsigned: nil
        case .floating(let double): Int64(exactly: double)
        case .boolean(let flag): flag ? 1 : 0
        case .decimal(let decimal): Self.exactInteger(decimal)
        }
    }

    /// The value as a double, rounded to the nearest one as `NSNumber.doubleValue` rounds; nil for
    /// NaN, which no store can keep.
    private var approximateDouble: Double? {
        let double: Double = switch self {
        case .integer(let integer): Double(integer)
        case .unsigned(let unsigned): Double(unsigned)
        case .floating(let double): double
        case .boolean(let flag): flag ? 1 : 0
        // Through the digits, which rounds correctly; NSDecimalNumber.doubleValue can be an ulp off.
        case .decimal(let decimal): Double(decimal.description) ?? NSDecimalNumber(decimal: decimal).doubleValue
        }
        return double.isNaN || isDecimalNaN ? nil : double
    }

    private var exactDecimal: Decimal? {
        switch self {
        case .integer(let integer): Decimal(integer)
        case .unsigned(let unsigned): Decimal(unsigned)
        case .floating(let double): Self.decimal(double)
        case .boolean(let flag): flag ? 1 : 0
        case .decimal(let decimal): decimal.isNaN ? nil : decimal
        }
    }

    /// The decimal a double's shortest digits spell (0.1 is 0.1, as users mean it), where
    /// `Decimal(Double)` on Linux can miss in the last digits; nil beyond Decimal's range.
    private static func decimal(_ double: Double) -> Decimal? {
        guard double.isFinite else { return nil }
        guard double != 0 else { return 0 }
        let decimal = Decimal(string: "\(double)") ?? Decimal(double)
        // Decimal's exponent stops at ±128: a double beyond turns into NaN or a lost zero.
        return decimal.isNaN || decimal.isZero ? nil : decimal
    }

    private var isDecimalNaN: Bool {
        if case .decimal(let decimal) = self { return decimal.isNaN }
        return false
    }

    private func integerProblem(for type: AttributeType) -> String {
        switch self {
        case .floating(let double) where double.isNaN:
            return "it is not a number (NaN)"
        case .floating(let double) where double.isFinite && double.rounded(.towardZero) != double:
            return "an integer attribute would lose its fraction"
        case .decimal(let decimal) where decimal.isNaN:
            return "it is not a number (NaN)"
        case .decimal(let decimal) where !decimal.isIntegral:
            return "an integer attribute would lose its fraction"
        default:
            let range = type.integerRange.map { " (\($0.lowerBound)...\($0.upperBound))" } ?? ""
            return "it is beyond an \(type)'s range\(range)"
        }
    }

    private static func exactInteger(_ decimal: Decimal) -> Int64? {
        guard !decimal.isNaN, decimal.isIntegral,
              decimal >= Decimal(Int64.min), decimal <= Decimal(Int64.max) else { return nil }
        // Through the digits: Decimal's own conversion goes through a double near the limits.
        return Int64(decimal.description)
    }
}

/// Why a value cannot be stored in an attribute: the words a ``ValidationError`` carries.
package struct AttributeValueRefusal: Error, Sendable {
    package let reason: String

    init(reason: String) {
        self.reason = reason
    }

    init(notFitting type: AttributeType, because why: String) {
        reason = "does not fit \(type): \(why)"
    }
}

extension Decimal {
    /// Whether the decimal has no fraction: rounding it to a whole number leaves it as it is.
    fileprivate var isIntegral: Bool {
        var value = self
        var whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .down)
        return whole == self
    }
}

extension PropertyValue {
    /// The value in the storage form of another attribute type (an integer sum as a double), or
    /// nil if it does not fit.
    func converted(to type: AttributeType) -> PropertyValue? {
        let ownType: AttributeType = switch self {
        case .integer: .integer64
        case .double: .double
        case .decimal: .decimal
        case .boolean: .boolean
        case .date: .date
        case .string: .string
        case .uuid: .uuid
        case .uri: .uri
        case .data, .null, .object: .binaryData
        }
        return PropertyValue.coerce(boxedValue(for: ownType), to: type)
    }
}
