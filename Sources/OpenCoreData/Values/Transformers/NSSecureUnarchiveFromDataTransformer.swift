#if !canImport(Darwin)
import Foundation

/// Unarchives secure-coded objects from `Data` and archives them in reverse: Foundation's
/// transformer of the same name, which Foundation on Linux lacks. A transformable attribute with
/// no transformer name uses it, as in Core Data.
///
/// Only the classes in ``allowedTopLevelClasses`` (and their subclasses) may appear anywhere in
/// an archive. Subclass it to allow your own `NSSecureCoding` classes, as on Apple platforms:
///
/// ```swift
/// final class ColorTransformer: NSSecureUnarchiveFromDataTransformer {
///     override class var allowedTopLevelClasses: [AnyClass] { [Color.self] }
/// }
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: NSValueTransformerName("ColorTransformer"))
/// ```
///
/// An archive that holds a class outside the list unarchives to nil. (Foundation on Linux stops
/// the process in that case; this transformer checks the archive's classes first.)
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    /// The classes an archive may hold: by default the property-list classes, `NSUUID`, `NSURL`
    /// and `NSNull`.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
         NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    override open class func allowsReverseTransformation() -> Bool {
        true
    }

    override open class func transformedValueClass() -> AnyClass {
        NSObject.self
    }

    /// Unarchives `value`, which must be `Data`; nil if it is not an archive of allowed classes.
    override open func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        let allowed = type(of: self).allowedTopLevelClasses
        guard Self.archiveHoldsOnly(allowed, data) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: allowed, from: data)
    }

    /// Archives `value` with secure coding; nil if it cannot be archived.
    ///
    /// Foundation on Linux archives only classes declared at the top level of a module (it stops
    /// the process on a nested one): a nested class at the root of `value` gives nil.
    override open func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let object = value as? NSObject, String(reflecting: type(of: object)).split(separator: ".").count > 2 {
            return nil
        }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }

    /// Whether every class the archive names, as the unarchiver would resolve it (the first of
    /// its `$classes` that this process knows), is one of `allowed` or a subclass of one.
    private static func archiveHoldsOnly(_ allowed: [AnyClass], _ data: Data) -> Bool {
        guard let archive = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let objects = archive["$objects"] as? [Any] else { return false }
        for case let entry as [String: Any] in objects {
            guard let names = entry["$classes"] as? [String] else { continue }
            // A class this process does not know makes the unarchiver fail cleanly.
            guard let archivedClass = names.lazy.compactMap({ NSClassFromString($0) }).first else { continue }
            let isAllowed = allowed.contains { allowedClass in
                archivedClass == allowedClass
                    || (archivedClass as? NSObject.Type)?.isSubclass(of: allowedClass) == true
            }
            if !isAllowed { return false }
        }
        return true
    }
}
#endif
