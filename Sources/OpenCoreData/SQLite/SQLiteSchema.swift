/// How a model maps onto SQLite tables.
///
/// - One table per entity hierarchy, named after the root entity, with `_pk` (the primary key),
///   `_entity` (the concrete entity's code) and `_version` (incremented by every save, for
///   optimistic locking), then one column per stored attribute and two per to-one relationship
///   (the destination's key, and its entity code in `_<column>_entity`), and a `_<column>_order`
///   BLOB per ordered to-many (see `StoredRelationshipOrder`). Properties declared by
///   subentities are prefixed with the entity name (`Employee_salary`).
/// - A to-many relationship whose inverse is to-one is read through the inverse's column.
/// - Many-to-many relationships, and to-many ones without an inverse, get a join table
///   `_<Entity>_<relationship>(source, source_entity, target, target_entity)`.
/// - `_ocd_metadata` holds the store's UUID, the model's hash and schema, entity codes, and the
///   store generation; `_ocd_primary_keys` holds the last key handed out per table; triggers
///   named `_ocd_generation_<table>_<insert|update|delete>` count writes that bypass the library
///   unless `_ocd_saving` has a row (see `SQLiteStoreBackend+Generation.swift`).
/// Immutable once built, and shared by every operation on the store.
package struct SQLiteSchema: @unchecked Sendable {
    package struct Table {
        package let name: String
        package let root: EntityDescription
        /// Columns after `_pk, _entity, _version`, in select order.
        package var columns: [Column] = []
        /// The order columns of ordered to-many relationships (see `StoredRelationshipOrder`),
        /// which fetches do not select.
        package var orderColumns: [String] = []
    }

    package struct Column {
        package let name: String
        package let declaredType: String
        /// The property the column stores, and whether it is the entity-code half of a to-one.
        package let property: PropertyDescription
        package let isEntityCode: Bool
    }

    package struct JoinTable {
        package let name: String
        package let owner: RelationshipDescription
    }

    package struct Index {
        package let name: String
        package let table: String
        /// Column names with their direction.
        package let columns: [(name: String, ascending: Bool)]
        /// What of the model asks for the index, in words ("attribute Team.wins", "index 'byWins'
        /// of Team"), for errors.
        package let owner: String
    }

    package static let metadataTable = "_ocd_metadata"
    static let primaryKeysTable = "_ocd_primary_keys"
    /// Has a row only inside the library's save transactions: the generation triggers then stand aside.
    static let savingTable = "_ocd_saving"
    /// Prefix of the triggers that advance the generation on writes that bypass the library.
    static let generationTriggerPrefix = "_ocd_generation_"
    /// Prefix of every index the store manages; other indexes are left alone.
    package static let indexPrefix = "_ocd_index_"

    package private(set) var tables: [ObjectIdentifier: Table] = [:]
    package private(set) var joinTables: [ObjectIdentifier: JoinTable] = [:]
    package private(set) var indexes: [Index] = []
    /// The select-list position of each slot's column, per entity (nil for to-many and transient).
    package private(set) var columnIndexBySlot: [ObjectIdentifier: [Int?]] = [:]
    /// The select-list position of each to-one slot's entity-code column, per entity.
    package private(set) var entityCodeColumnBySlot: [ObjectIdentifier: [Int?]] = [:]

    package init(model: ManagedObjectModel) throws(ModelError) {
        for entity in model.entities where entity.superentity == nil {
            tables[ObjectIdentifier(entity)] = try makeTable(root: entity)
        }
        for entity in model.entities {
            var columnBySlot: [Int?] = Array(repeating: nil, count: entity.slots.count)
            var codeBySlot: [Int?] = Array(repeating: nil, count: entity.slots.count)
            let columns = tables[ObjectIdentifier(entity.rootEntity)]?.columns ?? []
            for (position, column) in columns.enumerated() where (column.property.entity.map { entity.isKindOf(entity: $0) } ?? false) {
                if column.isEntityCode {
                    codeBySlot[column.property.slot] = position
                } else {
                    columnBySlot[column.property.slot] = position
                }
            }
            columnIndexBySlot[ObjectIdentifier(entity)] = columnBySlot
            entityCodeColumnBySlot[ObjectIdentifier(entity)] = codeBySlot
            for case let relationship as RelationshipDescription in entity.properties {
                if case .joinTable(let owner) = relationship.storage, owner === relationship {
                    joinTables[ObjectIdentifier(relationship)] = JoinTable(
                        name: "_\(entity.entityName)_\(relationship.name)", owner: relationship)
                }
            }
            indexes += makeIndexes(for: entity)
        }
        try checkNames()
    }

    /// Checks a model's names against the SQLite store's rules (see ``checkNames()``) without
    /// opening a store: the coordinator does so for every store type, so that a model that works
    /// in memory also works in a file.
    static func validate(_ model: ManagedObjectModel) throws(ModelError) {
        _ = try SQLiteSchema(model: model)
    }

    package func table(for entity: EntityDescription) -> Table? {
        tables[ObjectIdentifier(entity.rootEntity)]
    }

    package func joinTable(for owner: RelationshipDescription) -> JoinTable? {
        joinTables[ObjectIdentifier(owner)]
    }

    /// The column storing a property of `entity`, by name.
    package func columnName(of property: PropertyDescription) -> String {
        columnName(of: property, named: property.name)
    }

    /// The column `property` would have under another name: a renamed attribute's old column.
    package func columnName(of property: PropertyDescription, named name: String) -> String {
        guard let declaring = property.entity, declaring.superentity != nil else { return name }
        return "\(declaring.entityName)_\(name)"
    }

    /// The columns a relationship renamed from `from` kept under its old name, each with its new
    /// name: a to-one's key and entity columns, an ordered to-many's order column.
    package static func renamedColumns(of relationship: RelationshipDescription, from: String,
                                       in layout: SQLiteSchema) -> [(old: String, new: String)] {
        let oldName = layout.columnName(of: relationship, named: from)
        let newName = layout.columnName(of: relationship)
        if relationship.isToMany {
            return [("_\(oldName)_order", layout.orderColumnName(of: relationship))]
        }
        return [(oldName, newName), ("_\(oldName)_entity", "_\(newName)_entity")]
    }

    /// What a store keeps under the name of an entity renamed from `from` (to `entity`'s name),
    /// each with its new name: the table of a root entity, the columns a subentity declares in
    /// its hierarchy's table (their names start with the entity's), the join tables its
    /// relationships own.
    package func renamedParts(of entity: EntityDescription, from: String)
        -> (table: (old: String, new: String)?, columns: [(old: String, new: String)], joinTables: [(old: String, new: String)]) {
        let to = entity.entityName
        let table = entity.superentity == nil ? (old: from, new: to) : nil
        var columns: [(old: String, new: String)] = []
        if entity.superentity != nil, let hierarchy = self.table(for: entity) {
            var names = hierarchy.columns.filter { $0.property.entity === entity }.map(\.name)
            for case let relationship as RelationshipDescription in entity.properties where relationship.isToMany && relationship.isOrdered {
                names.append(orderColumnName(of: relationship))
            }
            for name in names {
                guard let range = name.range(of: "\(to)_") else { continue }
                columns.append((name.replacingCharacters(in: range, with: "\(from)_"), name))
            }
        }
        let joinTables = self.joinTables.values.filter { $0.owner.entity === entity }
            .map { (old: "_\(from)_\($0.owner.name)", new: $0.name) }
        return (table, columns, joinTables)
    }

    /// The column keeping an ordered to-many relationship's order, in its entity's table.
    package func orderColumnName(of relationship: PropertyDescription) -> String {
        "_\(columnName(of: relationship))_order"
    }

    /// The columns storing a property: one for an attribute, two (key and entity code) for a
    /// to-one, none for a to-many (an ordered one's order column is apart, see
    /// ``orderColumnName(of:)``).
    /// How many columns store `property`: ``columnNames(of:)``'s count, without building them.
    package func columnCount(of property: PropertyDescription) -> Int {
        if property is AttributeDescription { return 1 }
        guard let relationship = property as? RelationshipDescription, !relationship.isToMany else { return 0 }
        return 2
    }

    package func columnNames(of property: PropertyDescription) -> [String] {
        let name = columnName(of: property)
        if property is AttributeDescription { return [name] }
        guard let relationship = property as? RelationshipDescription, !relationship.isToMany else { return [] }
        return [name, "_\(name)_entity"]
    }

    private func makeTable(root: EntityDescription) throws(ModelError) -> Table {
        var table = Table(name: root.entityName, root: root)
        // Columns by name without case, as SQLite compares them, with the property that needs each.
        var used: [String: String] = ["_pk": "the store", "_entity": "the store", "_version": "the store"]
        for entity in root.selfAndDescendants {
            for property in entity.properties where property.isPersistent {
                let name = columnName(of: property)
                if let attribute = property as? AttributeDescription {
                    table.columns.append(Column(name: name, declaredType: Self.declaredType(of: attribute.attributeType),
                                                property: property, isEntityCode: false))
                } else if let relationship = property as? RelationshipDescription, !relationship.isToMany {
                    table.columns.append(Column(name: name, declaredType: "INTEGER", property: property, isEntityCode: false))
                    table.columns.append(Column(name: "_\(name)_entity", declaredType: "INTEGER", property: property, isEntityCode: true))
                } else if let relationship = property as? RelationshipDescription, relationship.isOrdered {
                    table.orderColumns.append(orderColumnName(of: relationship))
                } else {
                    continue
                }
                let owner = "\(entity.entityName).\(property.name)"
                let column = (property as? RelationshipDescription)?.isToMany == true ? orderColumnName(of: property) : name
                if let other = used[column.lowercased()] {
                    throw ModelError(ModelError.invalidName, "\(owner) and \(other) both need the column '\(column)' in table \(root.entityName) (SQLite does not tell names apart by case; a property of a subentity is stored as <entity>_<property>); rename \(owner) or \(other)")
                }
                used[column.lowercased()] = owner
            }
        }
        return table
    }

    private func makeIndexes(for entity: EntityDescription) -> [Index] {
        let tableName = entity.rootEntity.entityName
        var result: [Index] = []
        for property in entity.properties where property.isPersistent {
            let column = columnName(of: property)
            let isToOne = (property as? RelationshipDescription).map { !$0.isToMany } ?? false
            if isToOne || (property as? AttributeDescription)?.isIndexed == true {
                result.append(Index(name: "\(Self.indexPrefix)\(entity.entityName)_\(property.name)",
                                    table: tableName, columns: [(column, true)],
                                    owner: "\(property is AttributeDescription ? "attribute" : "relationship") \(entity.entityName).\(property.name)"))
            }
        }
        for index in entity.indexes {
            let columns = index.elements.compactMap { element -> (String, Bool)? in
                entity.property(named: element.propertyName).map { (columnName(of: $0), element.isAscending) }
            }
            result.append(Index(name: "\(Self.indexPrefix)\(entity.entityName)_\(index.name)", table: tableName, columns: columns,
                                owner: "index '\(index.name)' of \(entity.entityName)"))
        }
        return result
    }

    /// The declared type of an attribute's column. Decimals are text, compared with the
    /// `ocd_decimal` collation so that they sort by value.
    static func declaredType(of type: AttributeType) -> String {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: "INTEGER"
        case .doubleAttributeType, .floatAttributeType, .dateAttributeType: "REAL"
        case .decimalAttributeType: "TEXT COLLATE ocd_decimal"
        case .stringAttributeType, .URIAttributeType: "TEXT"
        case .binaryDataAttributeType, .transformableAttributeType, .UUIDAttributeType: "BLOB"
        }
    }

    // MARK: DDL

    func createStatements(for table: Table) -> [String] {
        let columns = ["\"_pk\" INTEGER PRIMARY KEY", "\"_entity\" INTEGER NOT NULL", "\"_version\" INTEGER NOT NULL"]
            + table.columns.map { "\(quoted($0.name)) \($0.declaredType)" }
            + table.orderColumns.map { "\(quoted($0)) BLOB" }
        return ["CREATE TABLE \(quoted(table.name)) (\(columns.joined(separator: ", ")))"]
    }

    func createStatements(for joinTable: JoinTable) -> [String] {
        let name = quoted(joinTable.name)
        return [
            "CREATE TABLE \(name) (\"source\" INTEGER NOT NULL, \"source_entity\" INTEGER NOT NULL, \"target\" INTEGER NOT NULL, \"target_entity\" INTEGER NOT NULL, PRIMARY KEY (\"source\", \"target\")) WITHOUT ROWID",
            targetIndexStatement(for: joinTable),
        ]
    }

    /// The index a join table's links are found by from their target, named by the table.
    func targetIndexStatement(for joinTable: JoinTable) -> String {
        "CREATE INDEX \(quoted(Self.targetIndexName(ofJoinTable: joinTable.name))) ON \(quoted(joinTable.name)) (\"target\", \"source\")"
    }

    package static func targetIndexName(ofJoinTable name: String) -> String {
        "\(indexPrefix)\(name)_target"
    }

    /// The triggers that advance the store generation when a program other than this library
    /// writes a table of objects or links: one per table and kind of write.
    var generationTriggers: [(name: String, table: String, statement: String)] {
        let tableNames = tables.values.map(\.name) + joinTables.values.map(\.name)
        return tableNames.sorted().flatMap { table in
            ["INSERT", "UPDATE", "DELETE"].map { event in
                let name = "\(Self.generationTriggerPrefix)\(table)_\(event.lowercased())"
                let statement = "CREATE TRIGGER \(quoted(name)) AFTER \(event) ON \(quoted(table)) "
                    + "WHEN NOT EXISTS (SELECT 1 FROM \(quoted(Self.savingTable))) BEGIN "
                    + "UPDATE \(quoted(Self.metadataTable)) SET \"value\" = CAST(\"value\" AS INTEGER) + 1 WHERE \"key\" = '\(SQLiteStoreBackend.generationKey)'; END"
                return (name, table, statement)
            }
        }
    }

    func createStatement(for index: Index) -> String {
        let columns = index.columns.map { "\(quoted($0.name))\($0.ascending ? "" : " DESC")" }
        return "CREATE INDEX IF NOT EXISTS \(quoted(index.name)) ON \(quoted(index.table)) (\(columns.joined(separator: ", ")))"
    }
}

/// An identifier quoted for SQL. Names are checked by the model (letters, digits, underscores),
/// so quoting is for keywords, never for escaping user input.
package func quoted(_ identifier: String) -> String {
    // A byte scan: with Foundation imported, `contains("\"")` is Foundation's substring search,
    // some 4,000 instructions a name, and statements are built per save.
    let escaped = identifier.utf8.contains(UInt8(ascii: "\"")) ? identifier.replacingOccurrences(of: "\"", with: "\"\"") : identifier
    return "\"" + escaped + "\""
}
