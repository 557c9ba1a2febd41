#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Uniqueness constraints at save time, as the SQLite store checks them
/// (`SQLiteStoreBackend+Constraints`): the save's claims against the stored rows, inside the
/// save's transaction, before anything is written.
///
/// Unlike SQLite, PostgreSQL runs writers side by side: two servers may both find a value free
/// and insert it. The unique index then makes the second wait for the first's commit and fail
/// with `23505`; the save runs again (``PostgresStoreBackend/saveAttempts``), and this check,
/// in the new transaction, finds the committed row and reports the conflict to the merge policy.
extension PostgresStoreBackend {
    /// The constraint conflicts a save must report instead of being written, or nil when it may
    /// be written. Runs once the save's rows are known current (locked at their expected
    /// versions), so that the outcome is the SQLite store's: rows that changed since they were
    /// read are reported first, constraint conflicts only without them. When the save may go
    /// ahead, the constrained values rows exchange are cleared first.
    func checkConstraints(of request: SaveRequest, _ connection: PooledConnection, loaded: Loaded) throws -> SaveOutcome? {
        guard let claims = request.constraintClaims() else { return nil }
        var indexes: [UniquenessConstraint: SQLiteUniqueIndex] = [:]
        var conflicts: [StoreConstraintConflict] = []
        for claim in claims.claims {
            if indexes[claim.constraint] == nil {
                indexes[claim.constraint] = SQLiteUniqueIndex(claim.constraint, schema: loaded.schema.layout) { loaded.codeByEntity[ObjectIdentifier($0)] }
            }
            guard let index = indexes[claim.constraint],
                  let holder = try storedRow(holding: claim.values, under: index, connection, loaded: loaded),
                  claims.conflicts(claim, with: holder.objectID) else { continue }
            conflicts.append(StoreConstraintConflict(constraint: claim.constraint, objectID: claim.objectID,
                                                     values: claim.values, databaseRow: holder))
        }
        if !conflicts.isEmpty { return .constraintConflicts(conflicts) }
        try clearChangingValues(of: request, claims: claims, connection, loaded: loaded)
        return nil
    }

    /// The stored row that holds `values` under the index's constraint, if any.
    private func storedRow(holding values: [PropertyValue], under index: SQLiteUniqueIndex,
                           _ connection: PooledConnection, loaded: Loaded) throws -> RowSnapshot? {
        guard let table = loaded.schema.layout.table(for: index.constraint.entity) else { return nil }
        let columns = Self.columnsByName(table)
        var binds = PostgresBindings()
        var conditions: [String] = []
        for (name, value) in zip(index.columns, values) {
            guard let column = columns[name] else { return nil }
            try PostgresValueCoding.append(value, to: &binds)
            conditions.append("\(quoted(name)) = \(PostgresValueCoding.placeholder(binds.count, for: column))")
        }
        if let scope = index.scope { conditions.append(scope) }
        let sql = "SELECT \(selectList(table)) FROM \(loaded.schema.qualified(table.name)) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
        guard let row = try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds)).first else { return nil }
        return try decode(row, loaded: loaded)
    }

    /// Sets to NULL the changed constrained columns of rows that exchange constrained values,
    /// before the updates write the new values.
    private func clearChangingValues(of request: SaveRequest, claims: ConstraintClaims, _ connection: PooledConnection, loaded: Loaded) throws {
        for (id, properties) in request.exchangedConstrainedProperties(claims) {
            guard let table = loaded.schema.layout.table(for: id.entity) else { continue }
            let columns = Set(properties.flatMap(loaded.schema.layout.columnNames(of:))).sorted()
            var query = PostgresQuery(unsafeSQL:
                "UPDATE \(loaded.schema.qualified(table.name)) SET \(columns.map { "\(quoted($0)) = NULL" }.joined(separator: ", ")) WHERE \"_pk\" = $1")
            query.binds.append(id.key)
            _ = try connection.query(query)
        }
    }
}
#endif
