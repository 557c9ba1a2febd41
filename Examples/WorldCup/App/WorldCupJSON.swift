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
            throw WorldCupError(.malformedRequest, reason(for: error))
        } catch {
            throw WorldCupError(.malformedRequest, "the JSON could not be read: \(error)")
        }
    }

    private static func reason(for error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the JSON has no \(path(context, key).debugDescription) field"
        case .typeMismatch(let type, let context):
            return context.codingPath.isEmpty ? "expected a JSON object" : "\(path(context).debugDescription) should be a \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context).debugDescription) should be a \(typeName(type)), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the request is not valid JSON" : "\(path(context).debugDescription): \(context.debugDescription)"
        @unknown default:
            return "the JSON could not be read"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Int16.Type, is Double.Type: "number"
        default: "\(type)"
        }
    }
}
