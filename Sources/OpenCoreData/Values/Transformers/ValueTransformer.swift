#if !canImport(Darwin)
public import Foundation

/// The name a value transformer is registered under: Foundation's `NSValueTransformerName`,
/// which Foundation on Linux lacks. Core Data model files name a transformable attribute's
/// transformer with it.
///
/// ```swift
/// extension NSValueTransformerName {
///     static let colorTransformer = NSValueTransformerName("ColorTransformer")
/// }
/// ```
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The transformer that unarchives secure-coded objects from data (and archives them in
    /// reverse): what a transformable attribute without a transformer name uses.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
}

/// Converts values to another form and, if it allows, back: Foundation's `ValueTransformer`,
/// which Foundation on Linux lacks, with the same API, so that the transformers an app registers
/// for its transformable attributes port unchanged.
///
/// A transformer for a transformable attribute turns the attribute's value into `Data` in
/// ``transformedValue(_:)`` and back in ``reverseTransformedValue(_:)``. Register it under the
/// name the model gives before the store is loaded:
///
/// ```swift
/// final class PointTransformer: ValueTransformer {
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? {
///         (value as? Point).map { Data("\($0.x),\($0.y)".utf8) }
///     }
///     override func reverseTransformedValue(_ value: Any?) -> Any? {
///         guard let data = value as? Data else { return nil }
///         let parts = String(decoding: data, as: UTF8.self).split(separator: ",")
///         return Point(x: Int(parts[0]) ?? 0, y: Int(parts[1]) ?? 0)
///     }
/// }
///
/// ValueTransformer.setValueTransformer(PointTransformer(), forName: NSValueTransformerName("PointTransformer"))
/// ```
///
/// Foundation's `init?(forName:)` returns the registered instance, which a Swift initializer
/// cannot do; look a transformer up with ``valueTransformer(forName:)`` instead.
open class ValueTransformer: NSObject {
    override public init() {
        super.init()
    }

    /// Registers `transformer` under `name`, replacing any transformer registered there; nil
    /// removes the registration.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        ValueTransformerRegistry.shared.set(transformer, forName: name)
    }

    /// The transformer registered under `name`, if any.
    public static func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        ValueTransformerRegistry.shared.transformer(forName: name)
    }

    /// The names of the registered transformers.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        ValueTransformerRegistry.shared.names()
    }

    /// The class of the values ``transformedValue(_:)`` returns.
    open class func transformedValueClass() -> AnyClass {
        NSObject.self
    }

    /// Whether ``reverseTransformedValue(_:)`` undoes ``transformedValue(_:)``. False unless a
    /// subclass says otherwise; a transformable attribute needs a transformer that allows it.
    open class func allowsReverseTransformation() -> Bool {
        false
    }

    /// The transformed form of `value`. This implementation returns `value` unchanged.
    open func transformedValue(_ value: Any?) -> Any? {
        value
    }

    /// The value that ``transformedValue(_:)`` turned into `value`. This implementation returns
    /// `value` unchanged when reverse transformation is allowed, and nil otherwise.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        type(of: self).allowsReverseTransformation() ? value : nil
    }
}

/// The process-wide table of named transformers. Transformers are registered once at launch and
/// read from any queue, so the table sits behind a lock.
final class ValueTransformerRegistry: @unchecked Sendable {
    static let shared = ValueTransformerRegistry()

    private let lock = NSLock()
    // Model files written by Xcode name the default transformer by its constant or, as often,
    // by its class name, which Core Data resolves as well.
    private var transformers: [NSValueTransformerName: ValueTransformer] = [
        .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
        NSValueTransformerName("NSSecureUnarchiveFromDataTransformer"): NSSecureUnarchiveFromDataTransformer(),
    ]

    func set(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        lock.lock()
        defer { lock.unlock() }
        transformers[name] = transformer
    }

    func transformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        lock.lock()
        defer { lock.unlock() }
        return transformers[name]
    }

    func names() -> [NSValueTransformerName] {
        lock.lock()
        defer { lock.unlock() }
        return transformers.keys.sorted { $0.rawValue < $1.rawValue }
    }
}
#endif
