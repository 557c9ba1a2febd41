/// One property's value inside a managed object.
///
/// Relationships hold objects of the same context (so an object keeps its identity when its ID
/// turns from temporary to permanent); snapshots and change sets turn them into object IDs.
enum Slot {
    case attribute(PropertyValue)
    case toOne(ManagedObject?)
    case toMany(ToManyRelationship)

    /// A copy that later changes to the live slot do not affect.
    var detachedCopy: Slot {
        if case .toMany(let relationship) = self { return .toMany(relationship.copy()) }
        return self
    }
}
