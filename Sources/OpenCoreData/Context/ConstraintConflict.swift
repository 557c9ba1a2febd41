import Foundation

/// Objects that break a uniqueness constraint when a context saves: Core Data's
/// `NSConstraintConflict`, carried by ``ObjectGraphError/constraintConflict`` when the merge
/// policy is ``MergePolicy/error`` (Core Data's `conflictList`).
///
/// A conflict is either between objects of the save and a stored object whose row already holds
/// the values (``databaseObjectID`` is set, one conflicting object), or between two or more
/// objects of the save only (Core Data's context-level violation: ``databaseObjectID`` is nil).
/// The IDs stay valid after the error: nothing was saved, and the context keeps its objects.
///
/// ```swift
/// do {
///     try context.save()
/// } catch let error as ObjectGraphError where error.code == ObjectGraphError.constraintConflict {
///     for conflict in error.constraintConflicts {
///         print(conflict.constraint, conflict.constraintValues, conflict.conflictingObjectIDs)
///     }
/// }
/// ```
public struct ConstraintConflict: Sendable, CustomStringConvertible {
    /// The names of the constrained properties (Core Data's `constraint`).
    public let constraint: [String]
    /// The entity that declares the constraint.
    public let entityName: String
    /// The values the objects share, by property name: the attributes' Swift values (`String`,
    /// `Int16`, `Date`, …) and, for a to-one relationship, the destination's ``ManagedObjectID``.
    public let constraintValues: [String: any Sendable]
    /// The stored object whose row holds the values; nil when the conflict is between objects
    /// of the save only.
    public let databaseObjectID: ManagedObjectID?
    /// The stored row's values by property name (attributes and to-one relationships; nil
    /// values left out), as read in the save's transaction; nil with ``databaseObjectID``.
    public let databaseSnapshot: [String: any Sendable]?
    /// The objects of the saving context that claim the values, in the order the merge policies
    /// resolve them: one when a stored row holds the values, two or more otherwise.
    public let conflictingObjectIDs: [ManagedObjectID]

    public var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map(Self.describe) ?? "nil")" }.joined(separator: ", ")
        let objects = conflictingObjectIDs.map(\.description).joined(separator: ", ")
        let holder = databaseObjectID.map { "the stored object \($0) holds them; claimed by \(objects)" }
            ?? "claimed by \(conflictingObjectIDs.count) objects of the save: \(objects)"
        return "\(entityName)(\(constraint.joined(separator: ", "))) with \(values): \(holder)"
    }

    private static func describe(_ value: any Sendable) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        return "\(value)"
    }

    init(_ group: ConstraintConflictGroup) {
        let constraint = group.constraint
        self.constraint = constraint.names
        entityName = constraint.entity.entityName
        var values: [String: any Sendable] = [:]
        for (property, value) in zip(constraint.properties, group.values) {
            values[property.name] = Self.publicValue(value, of: property)
        }
        constraintValues = values
        databaseObjectID = group.databaseRow?.objectID
        databaseSnapshot = group.databaseRow.map { row in
            var snapshot: [String: any Sendable] = [:]
            for property in row.objectID.entity.slots where property.isPersistent {
                if let value = Self.publicValue(row.value(at: property.slot), of: property) { snapshot[property.name] = value }
            }
            return snapshot
        }
        conflictingObjectIDs = group.objects.map(\.objectID)
    }

    /// The value as the property's own Swift type (as ``ManagedObject`` properties give it).
    private static func publicValue(_ value: PropertyValue, of property: PropertyDescription) -> (any Sendable)? {
        let type = (property as? AttributeDescription)?.attributeType
        switch (value, type) {
        case (.null, _): return nil
        case (.integer(let integer), .integer16AttributeType?): return Int16(truncatingIfNeeded: integer)
        case (.integer(let integer), .integer32AttributeType?): return Int32(truncatingIfNeeded: integer)
        case (.integer(let integer), .booleanAttributeType?): return integer != 0
        case (.integer(let integer), _): return integer
        case (.double(let double), .floatAttributeType?): return Float(double)
        case (.double(let double), _): return double
        case (.boolean(let bool), _): return bool
        case (.decimal(let decimal), _): return decimal
        case (.string(let string), _): return string
        case (.date(let date), _): return date
        case (.data(let data), _): return data
        case (.uuid(let uuid), _): return uuid
        case (.uri(let url), _): return url
        case (.object(let id), _): return id
        }
    }
}

/// Objects of a save that claim the same values under one constraint, and the stored row that
/// holds them, if any: the unit a merge policy resolves.
struct ConstraintConflictGroup {
    let constraint: UniquenessConstraint
    let values: [PropertyValue]
    /// The stored row holding the values, for a conflict with the store.
    let databaseRow: RowSnapshot?
    /// The claiming objects: changed stored objects first, then new ones, each in ID order.
    var objects: [ManagedObject]
}
