#if Postgres
import Foundation
package import OpenCoreData

/// How a model maps onto PostgreSQL tables, in the store's PostgreSQL schema (the URL's `schema`
/// option).
///
/// The layout is the SQLite store's (``SQLiteSchema``: one table per entity hierarchy with `_pk`,
/// `_entity` and `_version`, a column per attribute, two per to-one, join tables, indexes and
/// unique indexes named alike); what differs is the column types, chosen so that PostgreSQL
/// compares and sorts as memory does (Docs/PostgresStore.md, "Schema"), the indexes' `NULLS FIRST`,
/// and the store's own objects: `_ocd_metadata` (the SQLite store's keys and values),
/// `_ocd_generation` (one row) and one key sequence per hierarchy, `_ocd_pk_<root>`.
///
/// PostgreSQL truncates a name longer than 63 bytes without a word, so two long names could
/// become one; every name the store needs is checked first, and a long one is a ``ModelError``
/// naming it and what needs it.
package struct PostgresSchema: Sendable {
    /// The layout shared with the SQLite store.
    package let layout: SQLiteSchema
    /// The PostgreSQL schema the tables live in.
    package let schemaName: String

    package static let metadataTable = SQLiteSchema.metadataTable
    package static let generationTable = "_ocd_generation"
    /// Prefix of each hierarchy's key sequence.
    package static let sequencePrefix = "_ocd_pk_"
    /// Prefix of the primary key constraints: named by the store, so that PostgreSQL's own names
    /// (`<table>_pkey`) cannot take a name a later entity needs.
    package static let primaryKeyPrefix = "_ocd_key_"
    /// The longest name PostgreSQL keeps whole (its NAMEDATALEN is 64, with the NUL).
    package static let maximumNameBytes = PostgresStoreURL.maximumNameBytes

    /// - Throws: ``ModelError`` for names the SQLite store refuses (the coordinator checks those
    ///   for every store), and for any name longer than 63 bytes.
    package init(model: ManagedObjectModel, schemaName: String) throws(ModelError) {
        layout = try SQLiteSchema(model: model)
        self.schemaName = schemaName
        try checkNameLengths()
    }

    /// A name of the store's schema, quoted and qualified: `"t_1"."Team"`.
    package func qualified(_ name: String) -> String {
        "\(quoted(schemaName)).\(quoted(name))"
    }

    package var tables: [SQLiteSchema.Table] { layout.tables.values.sorted { $0.name < $1.name } }
    package var joinTables: [SQLiteSchema.JoinTable] { layout.joinTables.values.sorted { $0.name < $1.name } }

    // MARK: Types

    /// The column type of an attribute; see the table in Docs/PostgresStore.md, "Schema".
    package static func columnType(of type: AttributeType) -> String {
        switch type {
        case .integer16AttributeType: "smallint"
        case .integer32AttributeType: "integer"
        case .integer64AttributeType: "bigint"
        // 0 and 1, which compare and add up with integers as memory and SQLite do.
        case .booleanAttributeType: "smallint"
        // Dates as seconds since 2001: timestamptz keeps microseconds and would round a Date.
        case .doubleAttributeType, .floatAttributeType, .dateAttributeType: "double precision"
        case .decimalAttributeType: "numeric"
        // Byte order of UTF-8, which is code point order, as memory compares strings.
        case .stringAttributeType, .URIAttributeType: "text COLLATE \"C\""
        case .binaryDataAttributeType, .transformableAttributeType: "bytea"
        case .UUIDAttributeType: "uuid"
        }
    }

    package static func columnType(of column: SQLiteSchema.Column) -> String {
        guard !column.isEntityCode, let attribute = column.property as? AttributeDescription else { return "bigint" }
        return columnType(of: attribute.attributeType)
    }

    // MARK: DDL

    package func sequenceName(of table: SQLiteSchema.Table) -> String {
        Self.sequencePrefix + table.name
    }

    package func createStatements(for table: SQLiteSchema.Table) -> [String] {
        let columns = [
            "\"_pk\" bigint NOT NULL", "\"_entity\" bigint NOT NULL", "\"_version\" bigint NOT NULL",
        ] + table.columns.map { "\(quoted($0.name)) \(Self.columnType(of: $0))" }
            + table.orderColumns.map { "\(quoted($0)) bytea" }
        let key = "CONSTRAINT \(quoted(Self.primaryKeyPrefix + table.name)) PRIMARY KEY (\"_pk\")"
        return [
            "CREATE TABLE \(qualified(table.name)) (\((columns + [key]).joined(separator: ", ")))",
            "CREATE SEQUENCE IF NOT EXISTS \(qualified(sequenceName(of: table)))",
        ]
    }

    package func createStatements(for joinTable: SQLiteSchema.JoinTable) -> [String] {
        let name = qualified(joinTable.name)
        let key = "CONSTRAINT \(quoted(Self.primaryKeyPrefix + joinTable.name)) PRIMARY KEY (\"source\", \"target\")"
        return [
            "CREATE TABLE \(name) (\"source\" bigint NOT NULL, \"source_entity\" bigint NOT NULL, "
                + "\"target\" bigint NOT NULL, \"target_entity\" bigint NOT NULL, \(key))",
            "CREATE INDEX \(quoted(joinTargetIndexName(joinTable))) ON \(name) (\"target\", \"source\")",
        ]
    }

    package func joinTargetIndexName(_ joinTable: SQLiteSchema.JoinTable) -> String {
        SQLiteSchema.targetIndexName(ofJoinTable: joinTable.name)
    }

    /// An index of the model: ascending columns put NULL first, as memory orders nil, and
    /// descending ones last (PostgreSQL's defaults are the opposite).
    package func createStatement(for index: SQLiteSchema.Index) -> String {
        let columns = index.columns.map { "\(quoted($0.name)) \($0.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")" }
        return "CREATE INDEX \(quoted(index.name)) ON \(qualified(index.table)) (\(columns.joined(separator: ", ")))"
    }

    /// A uniqueness constraint's index; NULLs are distinct (PostgreSQL's default), so nil values
    /// never conflict, the library's rule.
    package func createStatement(for index: SQLiteUniqueIndex) -> String {
        var sql = "CREATE UNIQUE INDEX \(quoted(index.name)) ON \(qualified(index.table)) (\(index.columns.map(quoted).joined(separator: ", ")))"
        if let scope = index.scope { sql += " WHERE \(scope)" }
        return sql
    }

    // MARK: Names

    /// Every name the store needs, with what needs it and what of the model to rename to
    /// shorten it, in words.
    private var names: [(name: String, owner: String, renamed: String)] {
        var names: [(name: String, owner: String, renamed: String)] = []
        for table in tables {
            let owner = "entity '\(table.name)'"
            names.append((table.name, owner, owner))
            names.append((Self.primaryKeyPrefix + table.name, "the primary key of \(owner)", owner))
            names.append((sequenceName(of: table), "the key sequence of \(owner)", owner))
            for column in table.columns {
                let property = "\(column.property.entity?.entityName ?? table.name).\(column.property.name)"
                names.append((column.name, property, property))
            }
            for column in table.orderColumns {
                names.append((column, "the order column of \(owner)", owner))
            }
        }
        for joinTable in joinTables {
            let owner = "relationship \(joinTable.owner.qualifiedName)"
            names.append((joinTable.name, "the join table of \(owner)", owner))
            names.append((Self.primaryKeyPrefix + joinTable.name, "the primary key of \(owner)'s join table", owner))
            names.append((joinTargetIndexName(joinTable), "the index of \(owner)'s join table", owner))
        }
        names += layout.indexes.map { ($0.name, $0.owner, $0.owner) }
        // Names do not depend on entity codes.
        names += SQLiteUniqueIndex.all(in: layout) { _ in 0 }.map { index in
            let owner = "uniqueness constraint \(index.constraint)"
            return (index.name, owner, "the entity or properties of \(owner)")
        }
        return names
    }

    private func checkNameLengths() throws(ModelError) {
        for (name, owner, renamed) in names where name.utf8.count > Self.maximumNameBytes {
            throw ModelError(
                ModelError.invalidName,
                "\(owner) needs the PostgreSQL name '\(name)', which is \(name.utf8.count) bytes long; PostgreSQL "
                    + "names hold at most \(Self.maximumNameBytes) bytes (it would truncate longer ones, which could "
                    + "then collide); rename \(renamed)")
        }
    }
}
#endif
