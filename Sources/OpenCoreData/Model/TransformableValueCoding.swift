import Foundation

/// How a transformable attribute's values become the `Data` a store keeps, and back.
///
/// Objects keep the data, not the value, and values are transformed as they are set and read:
/// change tracking, snapshots, merges and stores then treat a transformable attribute as the
/// binary attribute it is stored as. A value that cannot be transformed is refused like any other
/// unfit value, and the next save names it.
///
/// Resolved at each use rather than when the model is compiled: Core Data looks transformers up
/// by name when it needs them, and apps may register theirs after building the model.
enum TransformableValueCoding {
    /// JSON, for a `@Managed` property of a ``ManagedCodableValue`` type.
    case json(any ManagedCodableValue.Type)
    /// A registered transformer. The unarchiving transformers turn data into values in their
    /// forward direction, so Core Data, and this library, use them in reverse.
    case transformer(ValueTransformer, name: String, isUnarchiver: Bool)

    /// The coding of `attribute`, which must be transformable.
    init(for attribute: AttributeDescription) throws(ModelError) {
        let name = attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : $0 }
        if name == nil, let codable = attribute.codableValueType {
            self = .json(codable)
            return
        }
        let transformerName = name ?? NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
        guard let transformer = ValueTransformer.registered(named: transformerName) else {
            throw ModelError(ModelError.missingValueTransformer, "\(attribute.entity?.entityName ?? "?").\(attribute.name) is transformed by '\(transformerName)', but no value transformer is registered under that name; register it with ValueTransformer.setValueTransformer(_:forName:) before loading the store")
        }
        self = .transformer(transformer, name: transformerName, isUnarchiver: transformer is NSSecureUnarchiveFromDataTransformer)
    }

    /// The data to store for `value`, or why there is none.
    func encode(_ value: Any) -> Result<Data, AttributeValueRefusal> {
        switch self {
        case .json(let type):
            guard Self.value(value, is: type), let encodable = value as? any Encodable else {
                return .failure(AttributeValueRefusal(reason: "\(Swift.type(of: value)) is not \(type), the property's Codable type"))
            }
            do {
                return .success(try Self.encoder.encode(encodable))
            } catch {
                return .failure(AttributeValueRefusal(reason: "\(Swift.type(of: value)) could not be encoded as JSON: \(error)"))
            }
        case .transformer(let transformer, let name, let isUnarchiver):
            let transformed = isUnarchiver ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
            if let data = transformed as? Data { return .success(data) }
            let outcome = transformed.map { "gave \(Swift.type(of: $0)), not Data" } ?? "gave nil"
            return .failure(AttributeValueRefusal(reason: "value transformer '\(name)' could not transform a \(Swift.type(of: value)): it \(outcome)"))
        }
    }

    /// The value `data` holds, or nil (logged) if it cannot be read back.
    func decode(_ data: Data, for attribute: AttributeDescription) -> Any? {
        let value: Any?
        switch self {
        case .json(let type):
            value = try? Self.decode(type, from: data)
        case .transformer(let transformer, _, let isUnarchiver):
            value = isUnarchiver ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
        }
        if value == nil {
            Log.context.error("\(attribute.entity?.entityName ?? "?").\(attribute.name): \(data.count) bytes could not be read back into a value; reading nil")
        }
        return value
    }

    private static func value<Value>(_ value: Any, is type: Value.Type) -> Bool {
        value is Value
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension ValueTransformer {
    /// The transformer registered under `name`, on every platform.
    static func registered(named name: String) -> ValueTransformer? {
        #if canImport(Darwin)
        ValueTransformer(forName: NSValueTransformerName(name))
        #else
        valueTransformer(forName: NSValueTransformerName(name))
        #endif
    }
}

extension ManagedObjectModel {
    /// Throws ``ModelError/missingValueTransformer`` for the first transformable attribute whose
    /// transformer is not registered: a store is not loaded that could not read its own values.
    func checkValueTransformers() throws(ModelError) {
        for entity in entities {
            for case let attribute as AttributeDescription in entity.properties
            where attribute.type == .transformableAttributeType {
                _ = try TransformableValueCoding(for: attribute)
            }
        }
    }
}

extension AttributeDescription {
    /// The value a transformable attribute holds, read back from its stored form.
    func transformedValue(of stored: PropertyValue) -> Any? {
        guard case .data(let data) = stored else { return nil }
        do {
            return try TransformableValueCoding(for: self).decode(data, for: self)
        } catch {
            Log.context.error("\(error.message); reading nil")
            return nil
        }
    }

    /// The stored form of `value` in this transformable attribute, or why it has none.
    func transformableStorage(of value: Any?) -> Result<PropertyValue, AttributeValueRefusal> {
        guard let value = flattenOptional(value), !(value is NSNull) else { return .success(.null) }
        let coding: TransformableValueCoding
        do {
            coding = try TransformableValueCoding(for: self)
        } catch {
            return .failure(AttributeValueRefusal(reason: error.message))
        }
        return coding.encode(value).map(PropertyValue.data)
    }
}

extension AttributeDescription {
    /// The stored form of a value given through key-value coding or a batch request: transformed
    /// for a transformable attribute, converted for the others.
    func storageConversion(of value: Any?) -> Result<PropertyValue, AttributeValueRefusal> {
        type == .transformableAttributeType ? transformableStorage(of: value) : PropertyValue.conversion(of: value, to: type)
    }

    /// A stored value as key-value coding returns it: transformed back for a transformable
    /// attribute, boxed as Core Data boxes it for the others.
    func keyValue(of stored: PropertyValue) -> Any? {
        type == .transformableAttributeType ? transformedValue(of: stored) : stored.boxedValue(for: type)
    }
}
