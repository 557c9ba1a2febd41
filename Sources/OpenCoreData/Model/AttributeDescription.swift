import Foundation

/// A typed value of an entity, Core Data's `NSAttributeDescription`.
///
/// ```swift
/// let year = AttributeDescription(name: "year", type: .integer16, defaultValue: 1908)
/// let name = AttributeDescription(name: "name", type: .string, isOptional: false)
/// ```
///
/// Typed subclasses declare attributes with `@Managed` instead; see ``Managed``.
public class AttributeDescription: PropertyDescription, @unchecked Sendable {
    /// The type of the attribute's values.
    public var attributeType: AttributeType {
        get { type }
        set {
            checkMutable()
            type = newValue
        }
    }

    /// Stored apart from ``attributeType``, which every property write reads (see
    /// ``PropertyDescription/isOptional``).
    var type: AttributeType

    /// The value a newly inserted object gets, or nil. It must fit ``attributeType``
    /// (`1908` for an integer 16 attribute, `false` for a boolean).
    public var defaultValue: Any? {
        willSet { checkMutable() }
    }

    /// Whether the store keeps an index on this attribute (a single-column index). For compound
    /// or descending indexes use ``EntityDescription/indexes``.
    public var isIndexed: Bool = false {
        willSet { checkMutable() }
    }

    /// Whether a deletion keeps this attribute's value in the store's persistent history, in
    /// the deletion's ``PersistentHistoryChange/tombstone``: Core Data's property of the same name.
    /// Mark what identifies an object outside the store (a UUID, a server ID), so that readers of
    /// history can tell which object went.
    public var preservesValueInHistoryOnDeletion: Bool = false {
        willSet { checkMutable() }
    }

    /// Whether the SQLite store may keep large values of this binary attribute in files beside
    /// the store, as Core Data does: values of 100 KiB or more go to
    /// `.NAME_SUPPORT/_EXTERNAL_DATA/` next to `NAME.sqlite`, and the row names the file.
    ///
    /// Which way a value is kept is not visible through the API: it reads and writes as `Data`
    /// either way. A file is written with the save that sets the value (on disk before the save
    /// commits) and removed once a save that replaces or deletes the value has committed; a
    /// failed save removes the files it wrote, and each load removes files no row names (left by
    /// a killed process, a migration or a batch update). `replacePersistentStore` and
    /// `migratePersistentStore` copy the files with the store, and `destroyPersistentStore`
    /// removes them. Predicates cannot compare values kept in files (they compare the file's
    /// name); `BatchInsertRequest` keeps its values in the rows. The PostgreSQL and in-memory
    /// stores keep every value in their rows.
    ///
    /// A read of a value whose file a save of another connection removed while the read ran (an
    /// old snapshot: a pinned query generation, another process's long read) throws
    /// ``PersistentStoreError/corruptStore`` naming the file; reading again gets the new value.
    public var allowsExternalBinaryDataStorage: Bool = false {
        willSet { checkMutable() }
    }

    /// The name of the value transformer that turns a transformable attribute's values into
    /// `Data` and back, registered with `ValueTransformer.setValueTransformer(_:forName:)`. Nil
    /// means `NSSecureUnarchiveFromData`, which keyed-archives property-list objects, as in
    /// Core Data. Loading a store throws ``ModelError/missingValueTransformer`` if no transformer
    /// is registered under the name.
    ///
    /// ```swift
    /// let color = AttributeDescription(name: "color", type: .transformable)
    /// color.valueTransformerName = "ColorTransformer"
    /// ```
    ///
    /// A `@Managed` property of a ``ManagedCodableValue`` type has no transformer: its values are
    /// kept as JSON.
    public var valueTransformerName: String? {
        willSet { checkMutable() }
    }

    /// The name of the class a transformable attribute's values have (Xcode's "Custom Class");
    /// `ocd generate` declares the property with it. Values are not checked against it.
    public var attributeValueClassName: String? {
        willSet { checkMutable() }
    }

    /// The `Codable` type a transformable attribute keeps as JSON, set from a `@Managed`
    /// declaration of a ``ManagedCodableValue`` type.
    package var codableValueType: (any ManagedCodableValue.Type)? {
        willSet { checkMutable() }
    }

    /// How a derived attribute's value is computed, set when the model is compiled (see
    /// ``DerivedAttributeDescription``); nil for other attributes.
    package internal(set) var derivation: Derivation?
    /// Whether the attribute is derived: set when the model is compiled, read on every write.
    package internal(set) var isDerived = false

    /// The default in storage form, set when the model is compiled.
    package internal(set) var defaultStorage: PropertyValue = .null

    /// Creates an attribute of the given type.
    ///
    /// - Parameters:
    ///   - name: The attribute's key.
    ///   - type: The type of its values.
    ///   - isOptional: Whether it may be nil when saved.
    ///   - defaultValue: The value new objects start with.
    ///   - isIndexed: Whether the store indexes it.
    public init(
        name: String = "",
        type: AttributeType = .stringAttributeType,
        isOptional: Bool = true,
        defaultValue: Any? = nil,
        isIndexed: Bool = false
    ) {
        self.type = type
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        super.init(name: name)
        self.isOptional = isOptional
    }
}
