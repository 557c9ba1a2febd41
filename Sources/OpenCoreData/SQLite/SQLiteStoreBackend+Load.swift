import Foundation
import GRDB

/// Creating a new store, checking an existing one against the model, and lightweight migration.
extension SQLiteStoreBackend {
    func load(model: ManagedObjectModel) throws -> String {
        let schema = try SQLiteSchema(model: model)
        let current = ModelSchema(model: model)
        let opening = ModelVersion(model: model, schema: current)
        var result: (identifier: String, codes: [String: Int64])?
        do {
            if description.isReadOnly {
                result = try writer.read { db in try self.checkReadOnly(db, current: current, opening: opening) }
            } else {
                try writer.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        result = try self.openOrCreate(db, schema: schema, current: current, opening: opening)
                        try self.prepareCommitCounting(db, schema: schema)
                        return .commit
                    }
                }
            }
        } catch {
            throw Self.storeError(error, url: url, doing: "loading the store")
        }
        guard let result else { throw PersistentStoreError(PersistentStoreError.cannotOpen, "the store could not be loaded", url: url) }
        let loaded = Loaded(identifier: result.identifier, schema: schema, codes: result.codes, model: model)
        // What killed processes and migrations left unreferenced.
        try sweepExternalData(loaded: loaded)
        loadedState.withLock { $0 = loaded }
        return result.identifier
    }

    private func openOrCreate(_ db: Database, schema: SQLiteSchema, current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        guard try db.tableExists(SQLiteSchema.metadataTable) else {
            return try create(db, schema: schema, current: current, opening: opening)
        }
        let metadata = try readMetadata(db)
        var codes = metadata.codes
        if metadata.hash != current.versionHash {
            let migration = try permittedMigration(from: metadata.version, schema: metadata.schema, to: current, opening: opening)
            for step in migration.steps {
                try apply(step, db, schema: schema, codes: &codes)
            }
            try writeMetadata(db, identifier: metadata.identifier, current: current, version: opening, codes: codes)
            log.debug("migrated store \(url.lastPathComponent): \(migration.steps.count) change(s)")
        } else if metadata.version.name == nil, opening.name != nil {
            // A store made before models had names takes the name of the first that opens it.
            try writeModelVersion(db, opening)
        }
        try syncIndexes(db, schema: schema)
        try syncUniqueIndexes(db, schema: schema, codes: codes)
        // Stores made before persistent history gain its tables on their first load.
        try SQLiteHistorySchema.prepare(db)
        return (metadata.identifier, codes)
    }

    private func checkReadOnly(_ db: Database, current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        guard try db.tableExists(SQLiteSchema.metadataTable) else {
            throw PersistentStoreError(PersistentStoreError.invalidStoreFile, "the database was not made by OpenCoreData (it has no \(SQLiteSchema.metadataTable) table)", url: url)
        }
        let metadata = try readMetadata(db)
        if metadata.hash != current.versionHash {
            let migration = SchemaMigration(from: metadata.schema, to: current)
            guard migration.isEmpty else {
                throw incompatible(migration, made: metadata.version, opening: opening, reason: "a read-only store cannot be migrated")
            }
        }
        return (metadata.identifier, metadata.codes)
    }

    // MARK: New stores

    private func create(_ db: Database, schema: SQLiteSchema, current: ModelSchema, opening: ModelVersion) throws -> (String, [String: Int64]) {
        let existing = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard existing.isEmpty else {
            throw PersistentStoreError(PersistentStoreError.invalidStoreFile, "the database was not made by OpenCoreData (it has tables \(existing.prefix(5).joined(separator: ", ")))", url: url)
        }
        try db.execute(sql: "CREATE TABLE \(quoted(SQLiteSchema.metadataTable)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)")
        try db.execute(sql: "CREATE TABLE \(quoted(SQLiteSchema.primaryKeysTable)) (\"entity\" TEXT PRIMARY KEY, \"max_key\" INTEGER NOT NULL)")
        let codes = StoreMetadata.newCodes(for: current)
        for table in schema.tables.values.sorted(by: { $0.name < $1.name }) {
            for statement in schema.createStatements(for: table) { try db.execute(sql: statement) }
        }
        for joinTable in schema.joinTables.values.sorted(by: { $0.name < $1.name }) {
            for statement in schema.createStatements(for: joinTable) { try db.execute(sql: statement) }
        }
        try syncIndexes(db, schema: schema)
        try syncUniqueIndexes(db, schema: schema, codes: codes)
        try SQLiteHistorySchema.create(db)
        let identifier = UUID().uuidString
        try db.execute(sql: "INSERT INTO \(quoted(SQLiteSchema.metadataTable)) VALUES (?, ?)", arguments: [MetadataKey.format, "1"])
        try writeMetadata(db, identifier: identifier, current: current, version: opening, codes: codes)
        log.debug("created store \(url.path)")
        return (identifier, codes)
    }

    // MARK: Migration

    private func apply(_ step: SchemaMigration.Step, _ db: Database, schema: SQLiteSchema, codes: inout [String: Int64]) throws {
        let model = try modelEntities(schema)
        switch step {
        case .addEntity(let name):
            guard let entity = model[name], let table = schema.table(for: entity) else { return }
            codes[name] = StoreMetadata.nextCode(after: codes)
            if try !db.tableExists(table.name) {
                for statement in schema.createStatements(for: table) { try db.execute(sql: statement) }
            } else {
                for property in entity.properties where property.isPersistent {
                    try addColumns(for: property, db, schema: schema)
                }
            }
            for case let relationship as RelationshipDescription in entity.properties {
                try createJoinTableIfOwned(relationship, db, schema: schema)
            }
        case .addAttribute(let entityName, let name), .addRelationship(let entityName, let name):
            guard let property = model[entityName]?.property(named: name) else { return }
            try addColumns(for: property, db, schema: schema)
            if let relationship = property as? RelationshipDescription {
                try createJoinTableIfOwned(relationship, db, schema: schema)
            }
        case .fillDefault(let entityName, let name):
            guard let entity = model[entityName], let attribute = entity.property(named: name) as? AttributeDescription,
                  let table = schema.table(for: entity), let literal = Self.sqlLiteral(attribute.defaultStorage) else { return }
            let column = quoted(schema.columnName(of: attribute))
            let entityCodes = entity.selfAndDescendants.compactMap { codes[$0.entityName] }.map(String.init).joined(separator: ", ")
            try db.execute(sql: "UPDATE \(quoted(table.name)) SET \(column) = \(literal) WHERE \(column) IS NULL AND \"_entity\" IN (\(entityCodes))")
        case .renameAttribute(let entityName, let from, let to):
            guard let entity = model[entityName], let attribute = entity.property(named: to),
                  let table = schema.table(for: entity) else { return }
            try db.execute(sql: "ALTER TABLE \(quoted(table.name)) RENAME COLUMN \(quoted(schema.columnName(of: attribute, named: from))) TO \(quoted(schema.columnName(of: attribute)))")
        case .renameRelationship(let entityName, let from, let to):
            guard let entity = model[entityName], let relationship = entity.property(named: to) as? RelationshipDescription,
                  let table = schema.table(for: entity) else { return }
            try renameColumns(SQLiteSchema.renamedColumns(of: relationship, from: from, in: schema), in: table.name, db)
        case .renameEntity(let from, let to):
            guard let entity = model[to] else { return }
            let parts = schema.renamedParts(of: entity, from: from)
            for (old, new) in [parts.table].compactMap({ $0 }) + parts.joinTables where try db.tableExists(old) {
                try db.execute(sql: "ALTER TABLE \(quoted(old)) RENAME TO \(quoted(new))")
            }
            // A join table's index is named by it; SQLite cannot rename an index.
            for (old, new) in parts.joinTables {
                guard let joinTable = schema.joinTables.values.first(where: { $0.name == new }) else { continue }
                try db.execute(sql: "DROP INDEX IF EXISTS \(quoted(SQLiteSchema.targetIndexName(ofJoinTable: old)))")
                try db.execute(sql: schema.targetIndexStatement(for: joinTable))
            }
            if let table = parts.table {
                try db.execute(sql: "UPDATE \(quoted(SQLiteSchema.primaryKeysTable)) SET \"entity\" = ? WHERE \"entity\" = ?",
                               arguments: [table.new, table.old])
            }
            if let table = schema.table(for: entity) {
                try renameColumns(parts.columns, in: table.name, db)
            }
            // The rows keep their entity code, now under the new name; the generation triggers
            // and managed indexes follow the new names when the load synchronises them.
            codes[to] = codes.removeValue(forKey: from)
        case .addUniquenessConstraint, .removeUniquenessConstraint:
            // syncUniqueIndexes, which runs after every migration, makes and drops the indexes.
            break
        }
    }

    /// Renames the columns of `table` that still have their old names.
    private func renameColumns(_ renames: [(old: String, new: String)], in table: String, _ db: Database) throws {
        let existing = Set(try db.columns(in: table).map(\.name))
        for (old, new) in renames where existing.contains(old) {
            try db.execute(sql: "ALTER TABLE \(quoted(table)) RENAME COLUMN \(quoted(old)) TO \(quoted(new))")
        }
    }

    private func modelEntities(_ schema: SQLiteSchema) throws -> [String: EntityDescription] {
        var result: [String: EntityDescription] = [:]
        for table in schema.tables.values {
            for entity in table.root.selfAndDescendants { result[entity.entityName] = entity }
        }
        return result
    }

    private func addColumns(for property: PropertyDescription, _ db: Database, schema: SQLiteSchema) throws {
        guard let entity = property.entity, let table = schema.table(for: entity) else { return }
        let existing = Set(try db.columns(in: table.name).map { $0.name.lowercased() })
        for column in table.columns where column.property === property && !existing.contains(column.name.lowercased()) {
            var definition = "\(quoted(column.name)) \(column.declaredType)"
            if let attribute = property as? AttributeDescription, !column.isEntityCode,
               let literal = Self.sqlLiteral(attribute.defaultStorage) {
                definition += " DEFAULT \(literal)"
            }
            try db.execute(sql: "ALTER TABLE \(quoted(table.name)) ADD COLUMN \(definition)")
        }
        if let relationship = property as? RelationshipDescription, relationship.isOrdered {
            let column = schema.orderColumnName(of: relationship)
            if !existing.contains(column.lowercased()) {
                try db.execute(sql: "ALTER TABLE \(quoted(table.name)) ADD COLUMN \(quoted(column)) BLOB")
            }
        }
    }

    private func createJoinTableIfOwned(_ relationship: RelationshipDescription, _ db: Database, schema: SQLiteSchema) throws {
        guard case .joinTable(let owner) = relationship.storage, owner === relationship,
              let joinTable = schema.joinTable(for: relationship), try !db.tableExists(joinTable.name) else { return }
        for statement in schema.createStatements(for: joinTable) { try db.execute(sql: statement) }
    }

    /// A default value written into the DDL of an added column (DDL cannot take parameters).
    /// Text is quoted with SQL escaping; numbers and blobs are formatted, never interpolated raw.
    static func sqlLiteral(_ value: PropertyValue) -> String? {
        switch SQLiteValueCoding.databaseValue(value).storage {
        case .null: return nil
        case .int64(let integer): return String(integer)
        case .double(let double): return double.isFinite ? "\(double)" : nil
        case .string(let text): return "'\(text.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let data): return "X'\(data.map { String(format: "%02X", $0) }.joined())'"
        }
    }

    // MARK: Indexes

    /// Creates the model's indexes and drops indexes of ours the model no longer has, or whose
    /// definition changed under the same name (they are created again below).
    private func syncIndexes(_ db: Database, schema: SQLiteSchema) throws {
        // SQLite keeps the statement without "IF NOT EXISTS"; compare in that form.
        let wanted = Dictionary(schema.indexes.map { index in
            (index.name, schema.createStatement(for: index).replacingOccurrences(of: "CREATE INDEX IF NOT EXISTS ", with: "CREATE INDEX "))
        }, uniquingKeysWith: { first, _ in first })
        let existing = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE ? ESCAPE '\\'",
                                        arguments: [SQLiteSchema.indexPrefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
        let joinIndexes = Set(schema.joinTables.values.map { SQLiteSchema.targetIndexName(ofJoinTable: $0.name) })
        for row in existing {
            let name: String = row["name"]
            let definition: String? = row["sql"]
            guard !joinIndexes.contains(name), wanted[name] != definition else { continue }
            try db.execute(sql: "DROP INDEX \(quoted(name))")
        }
        for index in schema.indexes {
            try db.execute(sql: schema.createStatement(for: index))
        }
    }
}
