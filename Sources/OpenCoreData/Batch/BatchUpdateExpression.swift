import Foundation

/// A value a ``BatchUpdateRequest`` computes for each row from the row's own values, where Core
/// Data takes an `NSExpression`: another attribute (`"teamName"`), or an attribute and a number
/// joined by `+`, `-`, `*` or `/` (`"wins + 1"`).
///
/// ```swift
/// request.propertiesToUpdate = ["wins": try BatchUpdateExpression(format: "wins + 1")]
/// ```
///
/// Integer attributes compute in integers (`/` rounds toward zero); anything else, or a number
/// with a fraction, in floating point. A result the attribute cannot hold (beyond an `Int16`'s
/// range, a fraction for an integer attribute, a division by zero) refuses the whole request,
/// naming the key, the object and the value, before anything is written.
public struct BatchUpdateExpression: Sendable, CustomStringConvertible {
    /// An arithmetic operator.
    public enum Operator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }

    /// The attribute read from each row.
    public let key: String
    /// The operator and number applied to it, if any.
    public let operation: (operator: Operator, operand: Double)?

    public var description: String {
        operation.map { "\(key) \($0.operator.rawValue) \(Self.text(of: $0.operand))" } ?? key
    }

    /// The value of the attribute `key` of each row.
    public static func keyPath(_ key: String) -> BatchUpdateExpression {
        BatchUpdateExpression(key: key, operation: nil)
    }

    /// The attribute `key` of each row with `operand` applied by `operator`.
    public init(key: String, _ operator: Operator, _ operand: Double) {
        self.init(key: key, operation: (`operator`, operand))
    }

    private init(key: String, operation: (operator: Operator, operand: Double)?) {
        self.key = key
        self.operation = operation
    }

    /// Parses `key`, or `key op number` with `op` one of `+ - * /`.
    ///
    /// - Throws: ``BatchRequestError/invalidRequest`` naming the text when it is neither.
    public init(format: String) throws {
        let parts = format.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let isKey = { (text: String) in
            text.first.map { $0.isLetter || $0 == "_" } == true && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        switch parts.count {
        case 1 where isKey(parts[0]):
            self.init(key: parts[0], operation: nil)
        case 3 where isKey(parts[0]):
            guard let op = Operator(rawValue: parts[1]), let operand = Double(parts[2]), operand.isFinite else { fallthrough }
            self.init(key: parts[0], operation: (op, operand))
        default:
            throw BatchRequestError(BatchRequestError.invalidRequest,
                                    "batch update expression '\(format)' is neither a key nor 'key op number' with op one of + - * / (spaces around the operator)")
        }
    }

    /// The value for one row, for key-value conversion to the target attribute: `stored` is the
    /// row's value of ``key`` (of type `sourceType`); nil stays nil, and a result no attribute can
    /// hold is NaN, which conversion refuses.
    func value(from stored: PropertyValue, sourceType: AttributeType, integerTarget: Bool) -> Any? {
        guard let (op, operand) = operation else { return stored.boxedValue(for: sourceType) }
        switch stored {
        case .integer(let value) where integerTarget && operand.rounded() == operand && abs(operand) < 9.0e15:
            let other = Int64(operand)
            let (result, overflow) = switch op {
            case .add: value.addingReportingOverflow(other)
            case .subtract: value.subtractingReportingOverflow(other)
            case .multiply: value.multipliedReportingOverflow(by: other)
            case .divide: other == 0 ? (0, true) : value.dividedReportingOverflow(by: other)
            }
            guard overflow else { return result }
            // The exact result, which no integer attribute holds: a Double could round it back
            // into range (Int64.min - 1 to Int64.min).
            return other == 0 ? Double.nan : Self.exact(op, value, other)
        case .integer(let value): return Self.apply(op, Double(value), operand)
        case .double(let value): return Self.apply(op, value, operand)
        case .decimal(let value): return Self.apply(op, NSDecimalNumber(decimal: value).doubleValue, operand)
        case .null: return nil
        default: return Double.nan
        }
    }

    private static func exact(_ op: Operator, _ value: Int64, _ operand: Int64) -> Decimal {
        let (left, right) = (Decimal(value), Decimal(operand))
        return switch op {
        case .add: left + right
        case .subtract: left - right
        case .multiply: left * right
        case .divide: left / right
        }
    }

    private static func apply(_ op: Operator, _ value: Double, _ operand: Double) -> Double {
        let result = switch op {
        case .add: value + operand
        case .subtract: value - operand
        case .multiply: value * operand
        case .divide: value / operand
        }
        return result.isFinite ? result : .nan
    }

    private static func text(of number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
