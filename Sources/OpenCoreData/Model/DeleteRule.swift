/// What happens to the objects at the other end of a relationship when its source is deleted,
/// with Core Data's `NSDeleteRule` names and raw values.
///
/// ```swift
/// players.deleteRule = .cascadeDeleteRule   // deleting a team deletes its players
/// ```
public enum DeleteRule: UInt, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Leave the destination alone, even if it keeps pointing at the deleted object.
    case noActionDeleteRule = 0
    /// Remove the deleted object from the destination's inverse relationship.
    case nullifyDeleteRule = 1
    /// Delete the destination objects too.
    case cascadeDeleteRule = 2
    /// Refuse the deletion while the relationship is not empty: ``ManagedObjectContext/save()``
    /// throws a ``ValidationError`` with code ``ValidationError/relationshipDeniedDelete``.
    case denyDeleteRule = 3

    public static var noAction: DeleteRule { .noActionDeleteRule }
    public static var nullify: DeleteRule { .nullifyDeleteRule }
    public static var cascade: DeleteRule { .cascadeDeleteRule }
    public static var deny: DeleteRule { .denyDeleteRule }

    public var description: String {
        switch self {
        case .noActionDeleteRule: "noAction"
        case .nullifyDeleteRule: "nullify"
        case .cascadeDeleteRule: "cascade"
        case .denyDeleteRule: "deny"
        }
    }
}
