import GRDB

/// Uniqueness constraints at save time: the rows of a save are checked against the stored rows
/// inside the save's write transaction, before anything is written. SQLite runs one writer at a
/// time, so no other connection or process can take the values between the check and the
/// write; the unique indexes stay as a safety net for any other writer.
extension SQLiteStoreBackend {
    /// What a save must report instead of being written, or nil when it may be written.
    ///
    /// When rows claim constrained values other stored rows hold, the outcome is
    /// ``SaveOutcome/conflicts(_:)`` if rows also changed since they were read (Core Data
    /// resolves those first), ``SaveOutcome/constraintConflicts(_:)`` otherwise. When the save
    /// may go ahead and several of its rows change values of one constraint, their changed
    /// constrained columns are cleared first, so that rows may exchange values (or one take
    /// another's) without tripping the unique index between two updates.
    ///
    /// - Parameter preImages: The updated and deleted rows as stored now, read in this transaction.
    func checkConstraints(of request: SaveRequest, preImages: [ManagedObjectID: RowSnapshot],
                          _ db: Database, loaded: Loaded) throws -> SaveOutcome? {
        guard let claims = request.constraintClaims() else { return nil }
        var indexes: [UniquenessConstraint: SQLiteUniqueIndex] = [:]
        var conflicts: [StoreConstraintConflict] = []
        for claim in claims.claims {
            if indexes[claim.constraint] == nil {
                indexes[claim.constraint] = SQLiteUniqueIndex(claim.constraint, schema: loaded.schema) { loaded.codeByEntity[ObjectIdentifier($0)] }
            }
            guard let index = indexes[claim.constraint],
                  let holder = try storedRow(holding: claim.values, under: index, db, loaded: loaded),
                  claims.conflicts(claim, with: holder.objectID) else { continue }
            conflicts.append(StoreConstraintConflict(constraint: claim.constraint, objectID: claim.objectID,
                                                     values: claim.values, databaseRow: holder))
        }
        if !conflicts.isEmpty {
            let stale = request.versionConflicts(preImages: preImages)
            return stale.isEmpty ? .constraintConflicts(conflicts) : .conflicts(stale)
        }
        try clearChangingValues(of: request, claims: claims, db, loaded: loaded)
        return nil
    }

    /// The stored row that holds `values` under the index's constraint, if any (there is at
    /// most one: the index is unique).
    private func storedRow(holding values: [PropertyValue], under index: SQLiteUniqueIndex,
                           _ db: Database, loaded: Loaded) throws -> RowSnapshot? {
        guard let table = loaded.schema.table(for: index.constraint.entity) else { return nil }
        let arguments = zip(index.constraint.properties, values).map { property, value in
            loaded.columnValue(0, of: property, storing: value)
        }
        let sql = "SELECT \(Self.selectList(table)) FROM \(quoted(table.name)) WHERE \(index.matchCondition) LIMIT 1"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) else { return nil }
        return try decode(row, loaded: loaded)
    }

    /// Sets to NULL the changed constrained columns of rows that change values of a constraint
    /// two or more rows of the save change, before the updates write the new values.
    private func clearChangingValues(of request: SaveRequest, claims: ConstraintClaims, _ db: Database, loaded: Loaded) throws {
        for (id, properties) in request.exchangedConstrainedProperties(claims) {
            guard let table = loaded.schema.table(for: id.entity) else { continue }
            let columns = Set(properties.flatMap(loaded.schema.columnNames(of:))).sorted()
            try db.execute(sql: "UPDATE \(quoted(table.name)) SET \(columns.map { "\(quoted($0)) = NULL" }.joined(separator: ", ")) WHERE \"_pk\" = ?",
                           arguments: [id.key])
        }
    }
}
