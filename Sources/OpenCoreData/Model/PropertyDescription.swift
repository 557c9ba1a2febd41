/// A property of an entity: an ``AttributeDescription`` or a ``RelationshipDescription``.
///
/// Like Core Data's `NSPropertyDescription`, a description can be changed until its model is
/// first used by a ``PersistentStoreCoordinator``; after that the model is immutable and a change
/// stops the program with "Can't modify an immutable model".
public class PropertyDescription: @unchecked Sendable, CustomStringConvertible {
    /// The property's name, the key used with ``ManagedObject/value(forKey:)``.
    public var name: String {
        willSet { checkMutable() }
    }

    /// Whether the property may be nil. Core Data's default is `true`. A required property that is
    /// nil when its object is saved fails validation.
    public var isOptional: Bool {
        get { optional }
        set {
            checkMutable()
            optional = newValue
        }
    }

    /// Whether the property lives only in memory: it is tracked for changes but never saved.
    public var isTransient: Bool {
        get { transient }
        set {
            checkMutable()
            transient = newValue
        }
    }

    // Stored apart from the public properties above, which a save reads for every property of
    // every object: reads of a public stored property of a class each pay a run-time
    // exclusivity check, reads of an internal one the module never modifies in place do not.
    var optional = true
    var transient = false

    /// The entity that declares the property. Set when the property is added to an entity.
    public internal(set) var entity: EntityDescription? {
        get { entityTarget?.entity }
        set { entityTarget = newValue?.weakTarget }
    }
    private weak var entityTarget: WeakEntityTarget?

    /// The property's position in every object's storage, assigned when the model is compiled.
    /// Inherited properties keep their position in subentities.
    package internal(set) var slot: Int = -1

    init(name: String) {
        self.name = name
    }

    public var description: String {
        "\(entity?.name ?? "?").\(name)"
    }

    func checkMutable() {
        if let model = entity?.managedObjectModel {
            model.checkMutable()
        }
    }

    /// Persistent properties are stored; transient ones are not.
    package var isPersistent: Bool { !transient }
}
