/// An error code shared by the library's error types: Core Data's numeric code where Core Data
/// has one (1570 for a missing mandatory property, 134100 for an incompatible model, ...) and a
/// readable name.
///
/// Match errors by code in a `catch` clause:
///
/// ```swift
/// do {
///     try container.loadPersistentStores()
/// } catch PersistentStoreError.incompatibleModel {
///     // the store was made by another model: migrate or start over
/// }
/// ```
public struct CoreDataErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// Core Data's code (a Cocoa error code), or one in the 140000 range for errors Core Data
    /// reports by crashing.
    public let rawValue: Int
    /// A readable name, such as `missingMandatoryProperty`.
    public let name: String

    package init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static func == (lhs: CoreDataErrorCode, rhs: CoreDataErrorCode) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { "\(name) (\(rawValue))" }
}

/// An error with a ``CoreDataErrorCode``: ``ModelError``, ``PersistentStoreError``,
/// ``ValidationError`` and ``ObjectGraphError`` all conform.
public protocol CoreDataCodedError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    var code: CoreDataErrorCode { get }
}

/// Lets `catch SomeError.someCode` match any error carrying that code.
public func ~= (code: CoreDataErrorCode, error: any Error) -> Bool {
    (error as? any CoreDataCodedError)?.code == code
}
