/// A kind of object in a model, Core Data's `NSEntityDescription`: a name, properties, an
/// optional superentity, and the ``ManagedObject`` subclass that represents its objects.
///
/// Build entities in code, Core Data style:
///
/// ```swift
/// let team = EntityDescription(name: "Team")
/// team.properties = [
///     AttributeDescription(name: "teamName", type: .string, isOptional: false),
///     AttributeDescription(name: "wins", type: .integer16, defaultValue: 0),
/// ]
/// let model = ManagedObjectModel(entities: [team])
/// ```
///
/// or derive them from `@Managed` declarations with ``ManagedObjectModel/init(managedObjectClasses:)``.
public final class EntityDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The entity's name, unique in its model. Fetch requests and URIs use it.
    public var name: String? {
        willSet { checkMutable() }
    }

    /// The class instantiated for the entity's objects. Defaults to ``ManagedObject``.
    public var managedObjectClass: ManagedObject.Type = ManagedObject.self {
        willSet { checkMutable() }
    }

    /// The name of the class that represents the entity's objects: a model file's
    /// `representedClassName`, or else the name of ``managedObjectClass``.
    ///
    /// Setting it does not choose the class: Swift has no run-time lookup of a class by name on
    /// every platform. ``ManagedObjectModel/init(contentsOf:managedObjectClasses:)`` binds each
    /// entity of a model file to the class of this name among the classes it is given; in code,
    /// set ``managedObjectClass``.
    public var managedObjectClassName: String {
        get { representedClassName ?? String(describing: managedObjectClass) }
        set {
            checkMutable()
            representedClassName = newValue
        }
    }
    private var representedClassName: String?

    /// Whether objects of exactly this entity may be created. Abstract entities exist to be
    /// inherited from.
    public var isAbstract: Bool = false {
        willSet { checkMutable() }
    }

    /// The properties this entity declares, not counting inherited ones.
    public var properties: [PropertyDescription] = [] {
        willSet { checkMutable() }
        didSet { for property in properties { property.entity = self } }
    }

    /// The entities that inherit from this one. Setting it sets each one's ``superentity``.
    public var subentities: [EntityDescription] = [] {
        willSet { checkMutable() }
        didSet { for subentity in subentities { subentity.superentity = self } }
    }

    /// The entity this one inherits properties from, if any.
    public internal(set) var superentity: EntityDescription? {
        get { superentityTarget?.entity }
        set { superentityTarget = newValue?.weakTarget }
    }
    private weak var superentityTarget: WeakEntityTarget?

    /// Indexes the store keeps for this entity's fetches, in addition to ``AttributeDescription/isIndexed``.
    public var indexes: [FetchIndexDescription] = [] {
        willSet { checkMutable() }
    }

    /// Groups of properties whose values, taken together, no two objects of this entity (or of
    /// its subentities) may share: Core Data's `uniquenessConstraints`, each inner array naming
    /// attributes or to-one relationships of the entity or its superentities.
    ///
    /// ```swift
    /// team.uniquenessConstraints = [["teamName"], ["qualifyingZone", "rank"]]
    /// ```
    ///
    /// The store keeps a unique index for each constraint, so that no write breaks it. A save that
    /// would break one is a merge conflict that the saving context's
    /// ``ManagedObjectContext/mergePolicy`` resolves: under ``MergePolicy/error`` it throws
    /// ``ObjectGraphError/constraintConflict``; under the other policies the new object is folded
    /// into the one that holds the values (see ``MergePolicy``). A nil value never conflicts.
    /// A constraint declared by a superentity covers its subentities' objects as well.
    ///
    /// With `@Managed` classes, write `@Managed(unique: true)` for a one-attribute constraint
    /// and override ``ManagedObject/uniquenessConstraints`` for compound ones. Adding or removing
    /// a constraint migrates an existing store automatically; adding one fails to open a store
    /// whose rows already break it, naming a duplicate.
    public var uniquenessConstraints: [[String]] = [] {
        willSet { checkMutable() }
    }

    /// Your own information about the entity, as in a model file's User Info; the library does
    /// not read it.
    public var userInfo: [AnyHashable: Any]? {
        willSet { checkMutable() }
    }

    /// The entity's name in an earlier version of the model: lightweight migration renames what
    /// the store keeps under the old name (its table, or its columns in its hierarchy's table,
    /// and its join tables) and keeps its rows (see ``PropertyDescription/renamingIdentifier``).
    public var renamingIdentifier: String? {
        willSet { checkMutable() }
    }

    /// Core Data's `versionHashModifier` (see ``PropertyDescription/versionHashModifier``).
    public var versionHashModifier: String? {
        willSet { checkMutable() }
    }

    /// The model the entity belongs to.
    public internal(set) weak var managedObjectModel: ManagedObjectModel?

    // MARK: Compiled layout (set once when the model is compiled)

    /// Every property including inherited ones, inherited first; an object's storage has one slot
    /// per entry, at ``PropertyDescription/slot``.
    package internal(set) var slots: [PropertyDescription] = []
    var slotByName: [String: Int] = [:]
    /// Slots of `@Managed` properties by their storage key path's identity, filled on first use:
    /// one lookup per property access instead of two, one of them by name. See
    /// `ManagedObject.managedProperty(for:)`.
    let slotByStorageKeyPath = StorageSlotCache()
    /// The top of the inheritance chain; stores keep a hierarchy in one table.
    package internal(set) unowned(unsafe) var rootEntity: EntityDescription! = nil
    /// This entity and every entity below it, this one first.
    package internal(set) var selfAndDescendants: [EntityDescription] = []
    /// The uniqueness constraints covering the entity, inherited ones first.
    var compiledConstraints: [UniquenessConstraint] = []
    /// The derived attributes of the entity's objects, inherited ones included.
    var derivedAttributes: [AttributeDescription] = []
    /// Relationships of the entity (inherited ones included) leading to objects whose derived
    /// attributes read this entity's objects: a save that changes one of its objects recomputes them.
    var derivationDependents: [RelationshipDescription] = []
    var isCompiled = false

    /// What weak references to this entity refer to (see ``WeakEntityTarget``).
    private(set) var weakTarget: WeakEntityTarget!

    /// Creates an entity with a name.
    public init(name: String? = nil) {
        self.name = name
        weakTarget = WeakEntityTarget(self)
    }

    /// Marks entities built by the model's reflection before compilation, and the placeholder
    /// that prototype objects are created with.
    var isPlaceholder = false

    public var description: String { name ?? "<unnamed entity>" }

    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    func checkMutable() {
        managedObjectModel?.checkMutable()
    }

    /// The entity's name, for messages and storage, once compilation has checked it is set.
    package var entityName: String { name ?? "" }
}

// MARK: - Lookup

extension EntityDescription {
    /// Every property by name, inherited ones included.
    public var propertiesByName: [String: PropertyDescription] {
        var result: [String: PropertyDescription] = [:]
        for property in allProperties { result[property.name] = property }
        return result
    }

    /// Every attribute by name, inherited ones included.
    public var attributesByName: [String: AttributeDescription] {
        var result: [String: AttributeDescription] = [:]
        for case let attribute as AttributeDescription in allProperties { result[attribute.name] = attribute }
        return result
    }

    /// Every relationship by name, inherited ones included.
    public var relationshipsByName: [String: RelationshipDescription] {
        var result: [String: RelationshipDescription] = [:]
        for case let relationship as RelationshipDescription in allProperties {
            result[relationship.name] = relationship
        }
        return result
    }

    /// The relationships whose destination is `entity`.
    public func relationships(forDestination entity: EntityDescription) -> [RelationshipDescription] {
        allProperties.compactMap { $0 as? RelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether this entity is `entity` or inherits from it.
    public func isKindOf(entity: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// Inherited properties first, then this entity's own.
    var allProperties: [PropertyDescription] {
        if isCompiled { return slots }
        return (superentity?.allProperties ?? []) + properties
    }

    /// The property at `name` in the compiled layout.
    package func property(named name: String) -> PropertyDescription? {
        slotByName[name].map { slots[$0] }
    }
}
