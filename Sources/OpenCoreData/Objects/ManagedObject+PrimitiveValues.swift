/// The primitive accessors and the access and change notifications that Core Data's custom
/// accessors are written with, so that such accessors port unchanged:
///
/// ```swift
/// var title: String? {
///     get {
///         willAccessValue(forKey: "title")
///         defer { didAccessValue(forKey: "title") }
///         return primitiveValue(forKey: "title") as? String
///     }
///     set {
///         willChangeValue(forKey: "title")
///         setPrimitiveValue(newValue?.trimmingCharacters(in: .whitespaces), forKey: "title")
///         didChangeValue(forKey: "title")
///     }
/// }
/// ```
///
/// Foundation on Linux has no key-value observing, so there are no observers for these to
/// notify: a primitive accessor reads and writes what ``value(forKey:)`` and
/// ``setValue(_:forKey:)`` do, and a change made through one is tracked and saved like any other
/// (in Core Data a primitive change outside `willChangeValue`/`didChangeValue` may go unnoticed).
extension ManagedObject {
    /// The stored value of a property, as ``value(forKey:)`` returns it.
    public func primitiveValue(forKey key: String) -> Any? {
        value(forKey: key)
    }

    /// Sets the stored value of a property, converted and checked as ``setValue(_:forKey:)``
    /// does; the change is tracked.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        setValue(value, forKey: key)
    }

    /// Says a property is about to be read: fires the fault, as Core Data's does, so that a
    /// custom accessor reading ``primitiveValue(forKey:)`` next reads loaded values.
    public func willAccessValue(forKey key: String?) {
        materialize()
    }

    /// Says a property was read. There is nothing to notify.
    public func didAccessValue(forKey key: String?) {}

    /// Says a property is about to change. There are no observers to notify; the change itself
    /// is tracked when it is made.
    public func willChangeValue(forKey key: String) {}

    /// Says a property changed. There are no observers to notify.
    public func didChangeValue(forKey key: String) {}
}
