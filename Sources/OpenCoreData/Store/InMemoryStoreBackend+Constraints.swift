/// Uniqueness constraints in the in-memory store: the same checks the SQLite store's unique
/// indexes and save make, over the rows in memory.
extension InMemoryStoreBackend {
    /// The claims that stored rows already hold, looked up through one index per constraint
    /// built from the rows of its entity's table.
    ///
    /// - Parameter rows: The rows of an entity hierarchy's table, by root entity.
    static func constraintConflicts(_ claims: ConstraintClaims,
                                    rows: (EntityDescription) -> [Int64: RowSnapshot]) -> [StoreConstraintConflict] {
        var indexes: [UniquenessConstraint: [ConstraintKey: RowSnapshot]] = [:]
        var result: [StoreConstraintConflict] = []
        for claim in claims.claims {
            let constraint = claim.constraint
            if indexes[constraint] == nil { indexes[constraint] = index(of: constraint, rows: rows(constraint.entity.rootEntity)) }
            guard let holder = indexes[constraint]?[ConstraintKey(claim.values)],
                  claims.conflicts(claim, with: holder.objectID) else { continue }
            result.append(StoreConstraintConflict(constraint: constraint, objectID: claim.objectID,
                                                  values: claim.values, databaseRow: holder))
        }
        return result
    }

    /// The rows a constraint covers, by their constrained values.
    static func index(of constraint: UniquenessConstraint, rows: [Int64: RowSnapshot]) -> [ConstraintKey: RowSnapshot] {
        var index: [ConstraintKey: RowSnapshot] = [:]
        for row in rows.values where constraint.covers(row.objectID.entity) {
            if let values = constraint.values(in: row) { index[ConstraintKey(values)] = row }
        }
        return index
    }
}
