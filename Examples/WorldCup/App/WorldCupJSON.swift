public import Foundation

/// JSON in and out, with decoding failures turned into reasons a person can read.
public enum WorldCupJSON {
    /// The encoder for responses and frames: sorted keys, so equal values give equal text.
    public static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// `encode(_:)` as text.
    public static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// Decodes a request body or a WebSocket message.
    ///
    /// - Throws: ``WorldCupError``: the checks' own errors as they are, anything else as
    ///   ``WorldCupError/Kind/malformedRequest`` naming the missing or mistyped field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(WorldCupError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as WorldCupError {
            throw error
        } catch let error as DecodingError {
            throw WorldCupError(.malformedRequest, reason(for: error, in: data))
        } catch {
            throw WorldCupError(.malformedRequest, "the JSON could not be read: \(error)")
        }
    }

    private static func reason(for error: DecodingError, in data: Data) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the JSON has no \(path(context, key).debugDescription) field"
        case .typeMismatch(let type, let context):
            guard !context.codingPath.isEmpty else { return "expected \(kind(of: type)), not \(topLevelKind(of: data))" }
            return "\(path(context).debugDescription) should be \(kind(of: type))"
        case .valueNotFound(let type, let context):
            guard !context.codingPath.isEmpty else { return "expected \(kind(of: type)), not null" }
            return "\(path(context).debugDescription) should be \(kind(of: type)), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the request is not valid JSON" : "\(path(context).debugDescription): \(context.debugDescription)"
        @unknown default:
            return "the JSON could not be read"
        }
    }

    /// The kind of JSON value a decoder expected, named as JSON names it rather than as a Swift type.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String: Any].Type: "a JSON object"
        case is [Any].Type: "a JSON array"
        default: "a value of another kind"
        }
    }

    /// What a valid JSON document holds at its top, told by its first character.
    private static func topLevelKind(of data: Data) -> String {
        let whitespace = Set(" \t\r\n".utf8)
        switch data.first(where: { !whitespace.contains($0) }) ?? 0 {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "true or false"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }
}
