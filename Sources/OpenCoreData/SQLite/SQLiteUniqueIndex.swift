import GRDB

/// The unique index that enforces one uniqueness constraint in an entity hierarchy's table.
///
/// A constraint declared by the root entity covers the whole table. One declared by a
/// subentity covers that entity and its subentities only, so its index is partial: `WHERE
/// "_entity" IN (…)`, with the store's codes of those entities. A to-one relationship is
/// constrained by its key column (destinations of one relationship share a table, so the key
/// alone names the object). SQLite's unique indexes ignore rows with a NULL in an indexed
/// column, which is the library's rule too: a nil value never conflicts.
package struct SQLiteUniqueIndex {
    /// Prefix of the unique indexes the store manages (apart from `SQLiteSchema.indexPrefix`,
    /// whose indexes are synchronised by other rules).
    package static let prefix = "_ocd_unique_"

    package let constraint: UniquenessConstraint
    /// `_ocd_unique_Team_teamName,qualifyingZone`.
    package let name: String
    package let table: String
    /// The indexed columns, in the constraint's order.
    package let columns: [String]
    /// The condition that limits the index to the declaring entity's subtree, or nil for a
    /// constraint of the root entity.
    package let scope: String?

    /// - Parameter code: The store's code of an entity.
    package init?(_ constraint: UniquenessConstraint, schema: SQLiteSchema, code: (EntityDescription) -> Int64?) {
        guard let table = schema.table(for: constraint.entity) else { return nil }
        self.constraint = constraint
        self.table = table.name
        columns = constraint.properties.map(schema.columnName(of:))
        name = "\(Self.prefix)\(constraint.entity.entityName)_\(constraint.names.joined(separator: ","))"
        if constraint.entity.superentity == nil {
            scope = nil
        } else {
            let codes = constraint.entity.selfAndDescendants.compactMap(code).map(String.init)
            scope = "\"_entity\" IN (\(codes.joined(separator: ", ")))"
        }
    }

    /// The unique indexes of a model's constraints, each under the entity that declares it.
    package static func all(in schema: SQLiteSchema, code: (EntityDescription) -> Int64?) -> [SQLiteUniqueIndex] {
        schema.tables.values.sorted { $0.name < $1.name }.flatMap { table in
            table.root.selfAndDescendants.flatMap { entity in
                entity.constraints.filter { $0.entity === entity }.compactMap { SQLiteUniqueIndex($0, schema: schema, code: code) }
            }
        }
    }

    /// The DDL, as SQLite keeps it in `sqlite_master` (so that a changed definition is seen).
    var createStatement: String {
        var sql = "CREATE UNIQUE INDEX \(quoted(name)) ON \(quoted(table)) (\(columns.map(quoted).joined(separator: ", ")))"
        if let scope { sql += " WHERE \(scope)" }
        return sql
    }

    /// The rows holding given values: `"a" = ? AND "b" = ?`, with the scope. Comparisons use each
    /// column's collation, as the index does.
    var matchCondition: String {
        (columns.map { "\(quoted($0)) = ?" } + (scope.map { [$0] } ?? [])).joined(separator: " AND ")
    }

    /// The conflict target of an upsert on this index: `("a", "b") WHERE …`; SQLite matches a
    /// partial index only when the target repeats its condition.
    var conflictTarget: String {
        var target = "(\(columns.map(quoted).joined(separator: ", ")))"
        if let scope { target += " WHERE \(scope)" }
        return target
    }
}

// MARK: - Keeping the indexes in step with the model

extension SQLiteStoreBackend {
    /// Creates the unique indexes of the model's constraints and drops those of constraints the
    /// model no longer has (or whose definition changed: a subentity added under a constrained
    /// one widens its index). Runs in the loading transaction, after migration.
    ///
    /// - Throws: ``PersistentStoreError/migrationConstraintViolation`` when stored rows already
    ///   break a constraint being added, naming it, the entity and a duplicated value; the
    ///   loading transaction then rolls back, leaving the store as it was.
    func syncUniqueIndexes(_ db: Database, schema: SQLiteSchema, codes: [String: Int64]) throws {
        let wanted = SQLiteUniqueIndex.all(in: schema) { codes[$0.entityName] }
        let definitions = Dictionary(wanted.map { ($0.name, $0.createStatement) }, uniquingKeysWith: { first, _ in first })
        let existing = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE ? ESCAPE '\\'",
                                        arguments: [SQLiteUniqueIndex.prefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
        var kept: Set<String> = []
        for row in existing {
            let name: String = row["name"]
            let definition: String? = row["sql"]
            if definitions[name] == definition {
                kept.insert(name)
            } else {
                try db.execute(sql: "DROP INDEX \(quoted(name))")
            }
        }
        for index in wanted where !kept.contains(index.name) {
            try refuseDuplicates(of: index, db)
            try db.execute(sql: index.createStatement)
            log.debug("created unique index \(index.name)")
        }
    }

    /// Throws when two stored rows hold the same values under the index's constraint.
    private func refuseDuplicates(of index: SQLiteUniqueIndex, _ db: Database) throws {
        let columns = index.columns.map(quoted).joined(separator: ", ")
        var conditions = index.columns.map { "\(quoted($0)) IS NOT NULL" }
        if let scope = index.scope { conditions.append(scope) }
        let sql = """
            SELECT \(columns), COUNT(*), MIN("_pk"), MAX("_pk") FROM \(quoted(index.table))
            WHERE \(conditions.joined(separator: " AND ")) GROUP BY \(columns) HAVING COUNT(*) > 1 LIMIT 1
            """
        guard let row = try Row.fetchOne(db, sql: sql) else { return }
        let constraint = index.constraint
        let values = constraint.properties.enumerated().map { position, property -> PropertyValue in
            let stored: DatabaseValue = row[position]
            guard let attribute = property as? AttributeDescription else {
                return Int64.fromDatabaseValue(stored).map(PropertyValue.integer) ?? .null
            }
            return SQLiteValueCoding.propertyValue(stored, type: attribute.attributeType)
        }
        let count: Int = row[index.columns.count]
        let first: Int64 = row[index.columns.count + 1]
        let last: Int64 = row[index.columns.count + 2]
        throw PersistentStoreError(PersistentStoreError.migrationConstraintViolation,
            "cannot add the uniqueness constraint \(constraint): \(count) stored \(constraint.entity.entityName) objects share \(constraint.describe(values)) (primary keys \(first) and \(last)\(count > 2 ? ", …" : "")); make them unique with the previous model, then open the store again. The store was not changed",
            url: url)
    }
}
