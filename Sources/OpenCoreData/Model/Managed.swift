/// Declares a stored property of a ``ManagedObject`` subclass: the counterpart of Core Data's
/// `@NSManaged`, and the source the entity description is derived from.
///
/// ```swift
/// final class Team: ManagedObject {
///     @Managed var teamName: String                 // required attribute
///     @Managed var imageName: String?               // optional attribute
///     @Managed var wins: Int16 = 0                  // attribute with a default
///     @Managed(indexed: true) var qualifyingZone: String
///     @Managed(inverse: "team", deleteRule: .cascade) var players: Set<Player>
/// }
///
/// final class Player: ManagedObject {
///     @Managed var name: String
///     @Managed(inverse: "players") var team: Team?  // to-one relationships are optional
/// }
/// ```
///
/// A non-optional type makes the property required: saving an object whose required value was
/// never set fails with ``ValidationError/missingMandatoryProperty``. Reading it before then gives
/// a zero value (`""`, `0`, `false`, ...). Default values must be constants; set dynamic ones such
/// as `Date()` in ``ManagedObject/awakeFromInsert()``.
///
/// Values live in the object's managed storage, not in the wrapper: the wrapper only carries the
/// declaration that the model is built from.
///
/// An app that declares a `Managed` of its own (the `protocol Managed` many Core Data books
/// teach) hides this one inside its module, and the compiler then reports "unknown attribute
/// 'Managed'". Write ``ManagedProperty`` there, the same wrapper under a name no app declares,
/// or qualify it as `@OpenCoreData.Managed`:
///
/// ```swift
/// protocol Managed: AnyObject { static var defaultSortDescriptors: [FetchSortDescriptor] { get } }
///
/// final class Mood: ManagedObject, Managed {
///     static var defaultSortDescriptors: [FetchSortDescriptor] { [FetchSortDescriptor(key: "date")] }
///     @ManagedProperty var date: Date
///     @ManagedProperty var colors: Data?
/// }
/// ```
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue> {
    /// The declaration, read by the model's reflection. Not API.
    /// The index of the declaration's record while a model reflects this object's class (see
    /// ``ManagedDeclarationRecorder``); 0 in every other object.
    let declarationIndex: Int32

    /// Declares a property with no default value.
    public init() {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration()) { nil }
    }

    /// Declares an attribute with a default value.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value new objects start with; a constant.
    ///   - indexed: Whether the store keeps an index on the attribute.
    ///   - transient: Whether the attribute lives only in memory and is never saved.
    ///   - unique: Whether no two objects of the entity may hold the same value: a uniqueness
    ///     constraint on this attribute alone (see ``EntityDescription/uniquenessConstraints``).
    public init(wrappedValue: Value, indexed: Bool = false, transient: Bool = false, unique: Bool = false) {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration(isIndexed: indexed, isTransient: transient, isUnique: unique)) { wrappedValue._toManaged }
    }

    /// Declares an attribute without a default value.
    ///
    /// ```swift
    /// @Managed(unique: true) var teamName: String   // one team per name
    /// ```
    ///
    /// - Parameters:
    ///   - indexed: Whether the store keeps an index on the attribute.
    ///   - transient: Whether the attribute lives only in memory and is never saved.
    ///   - unique: Whether no two objects of the entity may hold the same value: a uniqueness
    ///     constraint on this attribute alone (see ``EntityDescription/uniquenessConstraints``).
    public init(indexed: Bool = false, transient: Bool = false, unique: Bool = false) {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration(isIndexed: indexed, isTransient: transient, isUnique: unique)) { nil }
    }

    /// Declares a to-one relationship.
    ///
    /// - Parameters:
    ///   - inverse: The name of the relationship at the destination that points back.
    ///   - deleteRule: What deleting this object does to the destination.
    ///   - isOptional: Whether the relationship may be nil when saved.
    ///   - unique: Whether no two objects of the entity may point to the same destination: a
    ///     uniqueness constraint on this relationship alone.
    public init<Destination: ManagedObject>(
        inverse: StaticString? = nil, deleteRule: DeleteRule = .nullifyDeleteRule, isOptional: Bool = true,
        unique: Bool = false
    ) where Value == Destination? {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration(isUnique: unique, inverse: inverse, deleteRule: deleteRule,
                                           isOptional: isOptional)) { nil }
    }

    /// Declares a to-many relationship.
    ///
    /// - Parameters:
    ///   - inverse: The name of the relationship at the destination that points back.
    ///   - deleteRule: What deleting this object does to the destination objects.
    ///   - minCount: The fewest objects the saved relationship may hold.
    ///   - maxCount: The most objects the saved relationship may hold; 0 for no limit.
    public init<Destination: ManagedObject>(
        inverse: StaticString? = nil, deleteRule: DeleteRule = .nullifyDeleteRule,
        minCount: Int = 0, maxCount: Int = 0
    ) where Value == Set<Destination> {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration(inverse: inverse, deleteRule: deleteRule,
                                           minCount: Int32(clamping: minCount), maxCount: Int32(clamping: maxCount))) { nil }
    }

    /// Declares an ordered to-many relationship (Core Data's `NSOrderedSet`): the array's order
    /// is saved and merged with the relationship.
    ///
    /// ```swift
    /// @Managed(inverse: "playlist") var songs: [Song]
    /// ```
    ///
    /// - Parameters:
    ///   - inverse: The name of the relationship at the destination that points back.
    ///   - deleteRule: What deleting this object does to the destination objects.
    ///   - minCount: The fewest objects the saved relationship may hold.
    ///   - maxCount: The most objects the saved relationship may hold; 0 for no limit.
    public init<Destination: ManagedObject>(
        inverse: StaticString? = nil, deleteRule: DeleteRule = .nullifyDeleteRule,
        minCount: Int = 0, maxCount: Int = 0
    ) where Value == [Destination] {
        declarationIndex = ManagedDeclarationRecorder.record(_ManagedDeclaration(inverse: inverse, deleteRule: deleteRule,
                                           minCount: Int32(clamping: minCount), maxCount: Int32(clamping: maxCount))) { nil }
    }

    @available(*, unavailable, message: "@Managed is only available on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Managed is only available on properties of ManagedObject subclasses") }
        // swiftlint:disable:next unused_setter_value
        set { preconditionFailure("@Managed is only available on properties of ManagedObject subclasses") }
    }

    /// Reads and writes the value in the object's managed storage.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get { object.managedValue(Value.self, storage: storageKeyPath) }
        set { object.setManagedValue(newValue, storage: storageKeyPath) }
    }
}

/// ``Managed``, under a name that an app's own `protocol Managed` does not hide: write
/// `@ManagedProperty` wherever `@Managed` would be ambiguous. Both declare the same property.
///
/// ```swift
/// final class Mood: ManagedObject, Managed {   // Managed: the app's own protocol
///     @ManagedProperty var date: Date
///     @ManagedProperty(inverse: "moods") var country: Country?
/// }
/// ```
public typealias ManagedProperty<Value: ManagedPropertyValue> = Managed<Value>

/// What a `@Managed` declaration says beyond its type. Not API.
public struct _ManagedDeclaration {
    var isIndexed = false
    var isTransient = false
    var isUnique = false
    var inverse: StaticString?
    var deleteRule: DeleteRule = .nullifyDeleteRule
    var isOptional = true
    var minCount: Int32 = 0
    var maxCount: Int32 = 0
}

/// Type-erased access to a wrapper found by reflection.
protocol AnyManagedDeclaration {
    var declaration: _ManagedDeclaration { get }
    var kind: _ManagedPropertyKind { get }
    var defaultStoredValue: Any? { get }
}

extension Managed: AnyManagedDeclaration {
    var declaration: _ManagedDeclaration { ManagedDeclarationRecorder.record(at: declarationIndex)?.declaration ?? _ManagedDeclaration() }
    var kind: _ManagedPropertyKind { Value._managedKind }
    var defaultStoredValue: Any? { ManagedDeclarationRecorder.record(at: declarationIndex)?.defaultStoredValue }
}
