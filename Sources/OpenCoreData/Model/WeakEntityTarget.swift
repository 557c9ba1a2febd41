/// What weak references to an entity point at instead of the entity itself.
///
/// A weak reference gives its target a side table, and every later retain and release of the
/// target goes through that table, more slowly. An entity is retained by every copy of every
/// object ID, so descriptions that refer back to it weakly (a property to its entity, a
/// subentity to its superentity, a relationship to its destination) refer to this box, which the
/// entity alone keeps, and which therefore goes, and reads nil, when the entity goes.
final class WeakEntityTarget: @unchecked Sendable {
    unowned(unsafe) let entity: EntityDescription

    init(_ entity: EntityDescription) {
        self.entity = entity
    }
}
