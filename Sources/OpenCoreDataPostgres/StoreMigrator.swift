#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Makes the steps of a lightweight migration (``SchemaMigration``) in a PostgreSQL store, inside
/// the loading transaction: new tables, columns, join tables and key sequences, and the defaults
/// of attributes that became required. Unique indexes follow in ``StoreIndexes``.
struct StoreMigrator {
    let connection: PooledConnection
    let schema: PostgresSchema
    var catalog: StoreCatalog
    /// The entity codes, with the added entities'.
    var codes: [String: Int64]

    private var entities: [String: EntityDescription] {
        var result: [String: EntityDescription] = [:]
        for table in schema.tables {
            for entity in table.root.selfAndDescendants { result[entity.entityName] = entity }
        }
        return result
    }

    mutating func apply(_ step: SchemaMigration.Step) throws {
        switch step {
        case .addEntity(let name):
            guard let entity = entities[name], let table = schema.layout.table(for: entity) else { return }
            codes[name] = StoreMetadata.nextCode(after: codes)
            if !catalog.tables.contains(table.name) {
                for statement in schema.createStatements(for: table) { try connection.execute(statement) }
                catalog.tables.insert(table.name)
            } else {
                for property in entity.properties where property.isPersistent {
                    try addColumns(for: property)
                }
            }
            for case let relationship as RelationshipDescription in entity.properties {
                try createJoinTableIfOwned(relationship)
            }
        case .addAttribute(let entityName, let name), .addRelationship(let entityName, let name):
            guard let property = entities[entityName]?.property(named: name) else { return }
            try addColumns(for: property)
            if let relationship = property as? RelationshipDescription {
                try createJoinTableIfOwned(relationship)
            }
        case .fillDefault(let entityName, let name):
            guard let entity = entities[entityName], let attribute = entity.property(named: name) as? AttributeDescription,
                  let table = schema.layout.table(for: entity),
                  let literal = Self.literal(attribute.defaultStorage) else { return }
            let column = quoted(schema.layout.columnName(of: attribute))
            let entityCodes = entity.selfAndDescendants.compactMap { codes[$0.entityName] }.map(String.init).joined(separator: ", ")
            try connection.execute(
                "UPDATE \(schema.qualified(table.name)) SET \(column) = \(literal) WHERE \(column) IS NULL AND \"_entity\" IN (\(entityCodes))")
        case .renameAttribute(let entityName, let from, let to):
            guard let entity = entities[entityName], let attribute = entity.property(named: to),
                  let table = schema.layout.table(for: entity) else { return }
            let layout = schema.layout
            try connection.execute("ALTER TABLE \(schema.qualified(table.name)) RENAME COLUMN \(quoted(layout.columnName(of: attribute, named: from))) TO \(quoted(layout.columnName(of: attribute)))")
        case .renameRelationship(let entityName, let from, let to):
            guard let entity = entities[entityName], let relationship = entity.property(named: to) as? RelationshipDescription,
                  let table = schema.layout.table(for: entity) else { return }
            try renameColumns(SQLiteSchema.renamedColumns(of: relationship, from: from, in: schema.layout), in: table)
        case .renameEntity(let from, let to):
            guard let entity = entities[to] else { return }
            let parts = schema.layout.renamedParts(of: entity, from: from)
            for (old, new) in [parts.table].compactMap({ $0 }) + parts.joinTables where catalog.tables.contains(old) {
                try connection.execute("ALTER TABLE \(schema.qualified(old)) RENAME TO \(quoted(new))")
                catalog.tables.remove(old)
                catalog.tables.insert(new)
                // The indexes named by the table (its key's constraint follows its index).
                let key = PostgresSchema.primaryKeyPrefix
                try connection.execute("ALTER INDEX IF EXISTS \(schema.qualified(key + old)) RENAME TO \(quoted(key + new))")
                let (oldTarget, newTarget) = (SQLiteSchema.targetIndexName(ofJoinTable: old), SQLiteSchema.targetIndexName(ofJoinTable: new))
                try connection.execute("ALTER INDEX IF EXISTS \(schema.qualified(oldTarget)) RENAME TO \(quoted(newTarget))")
            }
            if let table = parts.table {
                // The hierarchy's key sequence is named by its table.
                try connection.execute("ALTER SEQUENCE IF EXISTS \(schema.qualified(PostgresSchema.sequencePrefix + table.old)) RENAME TO \(quoted(PostgresSchema.sequencePrefix + table.new))")
            }
            if let table = schema.layout.table(for: entity) {
                try renameColumns(parts.columns, in: table)
            }
            codes[to] = codes.removeValue(forKey: from)
        case .addUniquenessConstraint, .removeUniquenessConstraint:
            // StoreIndexes, which runs after every migration, makes and drops the indexes.
            break
        }
    }

    /// The names of a table's columns, as the server has them now.
    private func existingColumns(of table: SQLiteSchema.Table) throws -> Set<String> {
        Set(try connection.query("""
            SELECT attname::text FROM pg_attribute WHERE attrelid = \(schema.qualified(table.name))::regclass AND attnum > 0 AND NOT attisdropped
            """).map { try $0.decode(String.self) })
    }

    /// Renames the columns of `table` that still have their old names.
    private func renameColumns(_ renames: [(old: String, new: String)], in table: SQLiteSchema.Table) throws {
        let existing = try existingColumns(of: table)
        for (old, new) in renames where existing.contains(old) {
            try connection.execute("ALTER TABLE \(schema.qualified(table.name)) RENAME COLUMN \(quoted(old)) TO \(quoted(new))")
        }
    }

    private func addColumns(for property: PropertyDescription) throws {
        guard let entity = property.entity, let table = schema.layout.table(for: entity) else { return }
        let qualifiedTable = schema.qualified(table.name)
        let existing = try existingColumns(of: table)
        for column in table.columns where column.property === property && !existing.contains(column.name) {
            var definition = "\(quoted(column.name)) \(PostgresSchema.columnType(of: column))"
            if let attribute = property as? AttributeDescription, !column.isEntityCode,
               let literal = Self.literal(attribute.defaultStorage) {
                definition += " DEFAULT \(literal)"
            }
            try connection.execute("ALTER TABLE \(qualifiedTable) ADD COLUMN \(definition)")
        }
        if let relationship = property as? RelationshipDescription, relationship.isOrdered {
            let column = schema.layout.orderColumnName(of: relationship)
            if !existing.contains(column) {
                try connection.execute("ALTER TABLE \(qualifiedTable) ADD COLUMN \(quoted(column)) bytea")
            }
        }
    }

    private mutating func createJoinTableIfOwned(_ relationship: RelationshipDescription) throws {
        guard let joinTable = schema.layout.joinTable(for: relationship), !catalog.tables.contains(joinTable.name) else { return }
        for statement in schema.createStatements(for: joinTable) { try connection.execute(statement) }
        catalog.tables.insert(joinTable.name)
    }

    /// A default value written into the DDL of an added column (DDL takes no parameters), in the
    /// column's stored form: text quoted with SQL escaping, numbers and bytes formatted, never
    /// interpolated raw. Nil for no default (and for a NaN, stored as NULL).
    static func literal(_ value: PropertyValue) -> String? {
        switch value {
        case .null, .object: nil
        case .integer(let integer): String(integer)
        case .boolean(let flag): flag ? "1" : "0"
        case .double(let double): double.isFinite ? "\(double)::double precision" : nil
        case .date(let date): "\(date.timeIntervalSinceReferenceDate)::double precision"
        case .decimal(let decimal): "\(quotedText(decimal.description))::numeric"
        case .string(let text): quotedText(text)
        case .uri(let url): quotedText(url.absoluteString)
        case .data(let data): "decode('\(data.map { String(format: "%02x", $0) }.joined())', 'hex')"
        case .uuid(let uuid): "'\(uuid.uuidString)'::uuid"
        }
    }

    /// A string literal that means the same whatever `standard_conforming_strings` says: an
    /// escape string (`E'…'`), backslashes and quotes doubled.
    static func quotedText(_ text: String) -> String {
        "E'\(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''"))'"
    }
}
#endif
