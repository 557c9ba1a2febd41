/// A link from an entity to another, Core Data's `NSRelationshipDescription`.
///
/// A relationship is to-one when ``maxCount`` is 1 (the default) and to-many otherwise
/// (`maxCount = 0` means no limit). Give both ends of a link each other as
/// ``inverseRelationship`` so that changing one end updates the other.
///
/// ```swift
/// let players = RelationshipDescription(name: "players", destination: player, toMany: true)
/// let team = RelationshipDescription(name: "team", destination: teamEntity)
/// players.inverseRelationship = team
/// team.inverseRelationship = players
/// players.deleteRule = .cascade
/// ```
public final class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    /// The entity at the other end.
    public var destinationEntity: EntityDescription? {
        get { destinationTarget?.entity }
        set {
            checkMutable()
            destinationTarget = newValue?.weakTarget
        }
    }
    private weak var destinationTarget: WeakEntityTarget?

    /// The relationship at the other end that points back here, if any.
    public weak var inverseRelationship: RelationshipDescription? {
        willSet { checkMutable() }
    }

    /// What deleting the source object does to the destination. Defaults to nullify.
    public var deleteRule: DeleteRule = .nullifyDeleteRule {
        willSet { checkMutable() }
    }

    /// The fewest destination objects a saved to-many relationship may hold.
    public var minCount: Int = 0 {
        willSet { checkMutable() }
    }

    /// The most destination objects the relationship may hold: 1 for to-one, 0 for unlimited.
    public var maxCount: Int = 1 {
        willSet { checkMutable() }
    }

    /// Whether a to-many relationship keeps its objects in an order (Core Data's ordered
    /// relationship, an `NSOrderedSet`). The order is saved and merged with the relationship;
    /// ``ManagedObject/value(forKey:)`` returns an `NSOrderedSet` and
    /// ``ManagedObject/mutableOrderedSetValue(forKey:)`` changes it in place. Ignored for a to-one.
    public var isOrdered: Bool = false {
        willSet { checkMutable() }
    }

    /// Whether the relationship holds a set of objects rather than one.
    public var isToMany: Bool {
        get { maxCount != 1 }
        set { maxCount = newValue ? 0 : 1 }
    }

    /// Names used by models derived from `@Managed` declarations, resolved at compilation.
    var destinationEntityName: String?
    var inverseName: String?

    /// Creates a relationship.
    ///
    /// - Parameters:
    ///   - name: The relationship's key.
    ///   - destination: The entity at the other end.
    ///   - toMany: Whether it holds a set of objects.
    ///   - deleteRule: What deleting the source does to the destination.
    ///   - isOptional: Whether a to-one may be nil (a to-many may always be empty unless
    ///     ``minCount`` says otherwise).
    public init(
        name: String = "",
        destination: EntityDescription? = nil,
        toMany: Bool = false,
        deleteRule: DeleteRule = .nullifyDeleteRule,
        isOptional: Bool = true
    ) {
        destinationTarget = destination?.weakTarget
        self.deleteRule = deleteRule
        self.maxCount = toMany ? 0 : 1
        super.init(name: name)
        self.isOptional = isOptional
    }
}
