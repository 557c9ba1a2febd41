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
        var holders: [UniquenessConstraint: [ClaimedValue: RowSnapshot]] = [:]
        for (constraint, group) in Dictionary(grouping: claims.claims, by: \.constraint) {
            guard let index = SQLiteUniqueIndex(constraint, schema: loaded.schema.layout, code: { loaded.codeByEntity[ObjectIdentifier($0)] })
            else { continue }
            indexes[constraint] = index
            holders[constraint] = try storedRows(holding: group.map(\.values), under: index, connection, loaded: loaded)
        }
        var conflicts: [StoreConstraintConflict] = []
        for claim in claims.claims {
            guard let index = indexes[claim.constraint] else { continue }
            let holder: RowSnapshot?
            if let found = holders[claim.constraint], let value = ClaimedValue(claim.values) {
                holder = found[value]
            } else {
                holder = try storedRow(holding: claim.values, under: index, connection, loaded: loaded)
            }
            guard let holder, claims.conflicts(claim, with: holder.objectID) else { continue }
            conflicts.append(StoreConstraintConflict(constraint: claim.constraint, objectID: claim.objectID,
                                                     values: claim.values, databaseRow: holder))
        }
        if !conflicts.isEmpty { return .constraintConflicts(conflicts) }
        try clearChangingValues(of: request, claims: claims, connection, loaded: loaded)
        return nil
    }

    /// A claimed value of a one-column constraint whose stored rows one statement finds for
    /// every claim at once (`= ANY($1)`), keyed as PostgreSQL compares it: integers by value,
    /// text by its UTF-8 bytes (Swift's `==` on strings would equate canonically equivalent
    /// text that `COLLATE "C"` keeps apart). Other types are looked up one claim at a time.
    enum ClaimedValue: Hashable {
        case integer(Int64)
        case text([UInt8])

        init?(_ values: [PropertyValue]) {
            guard values.count == 1 else { return nil }
            switch values[0] {
            case .integer(let integer): self = .integer(integer)
            case .string(let text): self = .text(Array(text.utf8))
            case .uri(let url): self = .text(Array(url.absoluteString.utf8))
            default: return nil
            }
        }
    }

    /// The stored rows holding any of `claimed` under a one-column constraint of integers or
    /// text, by value, from one statement per 10,000 claims; nil when the constraint or its values
    /// are of another kind (then each claim is looked up alone).
    private func storedRows(holding claimed: [[PropertyValue]], under index: SQLiteUniqueIndex,
                            _ connection: PooledConnection, loaded: Loaded) throws -> [ClaimedValue: RowSnapshot]? {
        guard index.columns.count == 1, let table = loaded.schema.layout.table(for: index.constraint.entity),
              let column = Self.columnsByName(table)[index.columns[0]] else { return nil }
        let keys = claimed.compactMap(ClaimedValue.init)
        guard keys.count == claimed.count else { return nil }
        let isText = PostgresValueCoding.castType(of: column) == "text"
        var result: [ClaimedValue: RowSnapshot] = [:]
        let name = quoted(column.name)
        let scope = index.scope.map { " AND \($0)" } ?? ""
        for start in stride(from: 0, to: keys.count, by: 10_000) {
            let chunk = keys[start..<min(start + 10_000, keys.count)]
            var query = PostgresQuery(unsafeSQL: "SELECT \(selectList(table)), \(name)::text FROM \(loaded.schema.qualified(table.name)) "
                + "WHERE \(name) = ANY($1::\(isText ? "text" : PostgresValueCoding.castType(of: column))[])\(scope)")
            var texts: [String] = [], integers: [Int64] = []
            for key in chunk {
                switch key {
                case .text(let bytes): texts.append(String(decoding: bytes, as: UTF8.self))
                case .integer(let integer): integers.append(integer)
                }
            }
            if isText { query.binds.append(texts) } else { query.binds.append(integers) }
            for row in try connection.query(query) {
                guard let snapshot = try decode(row, loaded: loaded) else { continue }
                let stored = try row.makeRandomAccess()[3 + table.columns.count].decode(String.self)
                let key: ClaimedValue? = isText ? .text(Array(stored.utf8)) : Int64(stored).map(ClaimedValue.integer)
                if let key { result[key] = snapshot }
            }
        }
        return result
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
