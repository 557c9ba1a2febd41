/// How a store keeps a relationship. Every to-one has a column holding the destination's key;
/// a to-many whose inverse is to-one is read through that inverse's column; the rest (many-to-many,
/// and to-many without an inverse) use a join table owned by one end.
package enum RelationshipStorage {
    case foreignKey
    case inverseForeignKey(RelationshipDescription)
    case joinTable(owner: RelationshipDescription)
}

extension RelationshipDescription {
    package var storage: RelationshipStorage {
        if !isToMany { return .foreignKey }
        guard let inverse = inverseRelationship else { return .joinTable(owner: self) }
        if !inverse.isToMany { return .inverseForeignKey(inverse) }
        return .joinTable(owner: qualifiedName <= inverse.qualifiedName ? self : inverse)
    }

    /// `Entity.relationship`, stable across launches; picks which end owns a join table.
    package var qualifiedName: String { "\(entity?.entityName ?? "").\(name)" }
}
