import Foundation

/// A JSON value, for output whose shape depends on the store's model (an object's attributes).
enum JSONValue: Encodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case decimal(Decimal)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as text for a table: strings as they are (line breaks escaped), nil as `nil`.
    var text: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .decimal(let value): "\(value)"
        case .string(let value): value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t")
        case .array(let values): "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .object(let values): "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.text)" }.joined(separator: ", ") + "}"
        }
    }
}
