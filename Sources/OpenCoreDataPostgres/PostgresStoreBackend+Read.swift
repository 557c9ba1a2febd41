#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Reading rows by primary key: faults, and the contents of to-many relationships, each one
/// statement per table whatever the number of keys (`= ANY($1::bigint[])`, one parameter).
extension PostgresStoreBackend {
    package func snapshots(for ids: [ManagedObjectID]) throws -> [RowSnapshot] {
        let loaded = try loaded
        return try reading("reading objects") { connection in
            try snapshots(for: ids, connection, loaded: loaded)
        }
    }

    /// The rows of these objects as `connection` sees them; rows that no longer exist are left
    /// out. With `lockingForUpdate`, the rows stay locked until the transaction ends (a save's
    /// pre-images), locked in key order so that two saves never wait for each other in a cycle.
    func snapshots(for ids: [ManagedObjectID], _ connection: PooledConnection, loaded: Loaded,
                   lockingForUpdate: Bool = false) throws -> [RowSnapshot] {
        var result: [RowSnapshot] = []
        let groups = Dictionary(grouping: ids, by: { ObjectIdentifier($0.entity.rootEntity) }).values
        // Tables in name order too, for the same reason as the keys.
        for group in groups.sorted(by: { $0[0].entity.rootEntity.entityName < $1[0].entity.rootEntity.entityName }) {
            guard let table = loaded.schema.layout.table(for: group[0].entity) else { continue }
            let wanted = Set(group)
            var query = PostgresQuery(unsafeSQL: "SELECT \(selectList(table)) FROM \(loaded.schema.qualified(table.name)) "
                + "WHERE \"_pk\" = ANY($1::bigint[])" + (lockingForUpdate ? " ORDER BY \"_pk\" FOR UPDATE" : ""))
            query.binds.append(group.map(\.key))
            for row in try connection.query(query) {
                if let snapshot = try decode(row, loaded: loaded), wanted.contains(snapshot.objectID) {
                    result.append(snapshot)
                }
            }
        }
        return result
    }

    package func relatedObjectIDs(of ids: [ManagedObjectID], through relationship: RelationshipDescription) throws
        -> [ManagedObjectID: [ManagedObjectID]] {
        let loaded = try loaded
        let schema = loaded.schema
        let select: String
        switch relationship.storage {
        case .foreignKey:
            return [:]
        case .inverseForeignKey(let inverse):
            guard let inverseEntity = inverse.entity, let table = schema.layout.table(for: inverseEntity) else { return [:] }
            let column = quoted(schema.layout.columnName(of: inverse))
            select = "SELECT \(column), \"_pk\", \"_entity\" FROM \(schema.qualified(table.name)) WHERE \(column)"
        case .joinTable(let owner):
            guard let joinTable = schema.layout.joinTable(for: owner) else { return [:] }
            let name = schema.qualified(joinTable.name)
            select = owner === relationship
                ? "SELECT \"source\", \"target\", \"target_entity\" FROM \(name) WHERE \"source\""
                : "SELECT \"target\", \"source\", \"source_entity\" FROM \(name) WHERE \"target\""
        }
        let owners = Dictionary(ids.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var query = PostgresQuery(unsafeSQL: "\(select) = ANY($1::bigint[]) ORDER BY 1, 2")
        query.binds.append(ids.map(\.key))
        let rows = try reading("reading relationships") { try $0.query(query) }
        var result: [ManagedObjectID: [ManagedObjectID]] = [:]
        for id in ids { result[id] = [] }
        for row in rows {
            let (ownerKey, key, code) = try row.decode((Int64, Int64, Int64).self)
            guard let owner = owners[ownerKey], let entity = loaded.entityByCode[code] else { continue }
            result[owner, default: []].append(ManagedObjectID(entity: entity, store: loaded.tag, primaryKey: key))
        }
        if relationship.isOrdered, let entity = relationship.entity, let table = schema.layout.table(for: entity) {
            // The order column of each owner's row (see `StoredRelationshipOrder`).
            var orders = PostgresQuery(unsafeSQL: "SELECT \"_pk\", \(quoted(schema.layout.orderColumnName(of: relationship))) "
                + "FROM \(schema.qualified(table.name)) WHERE \"_pk\" = ANY($1::bigint[])")
            orders.binds.append(ids.map(\.key))
            for row in try reading("reading relationship orders", { try $0.query(orders) }) {
                let (ownerKey, order) = try row.decode((Int64, Data?).self)
                guard let owner = owners[ownerKey], let order else { continue }
                result[owner] = StoredRelationshipOrder.arrange(result[owner] ?? [], by: StoredRelationshipOrder.decode(order))
            }
        }
        return result
    }

    // MARK: Rows

    /// `"_pk", "_entity", "_version"` and the table's columns, as ``decode(_:loaded:)`` reads them,
    /// of the row `alias` names if given.
    func selectList(_ table: SQLiteSchema.Table, alias: String? = nil) -> String {
        let prefix = alias.map { "\($0)." } ?? ""
        return (["\"_pk\"", "\"_entity\"", "\"_version\""].map { prefix + $0 }
            + table.columns.map { PostgresValueCoding.selectExpression($0, prefix: prefix) })
            .joined(separator: ", ")
    }

    /// A row of ``selectList(_:)`` as a snapshot of its concrete entity, or nil for a row of an
    /// entity the model does not have.
    ///
    /// - Throws: A decoding error when a column holds a value of another type than the store
    ///   made it with (a table altered by another program).
    func decode(_ row: PostgresRow, loaded: Loaded) throws -> RowSnapshot? {
        let cells = row.makeRandomAccess()
        let code = try cells[1].decode(Int64.self)
        guard let entity = loaded.entityByCode[code],
              let columns = loaded.schema.layout.columnIndexBySlot[ObjectIdentifier(entity)],
              let codeColumns = loaded.schema.layout.entityCodeColumnBySlot[ObjectIdentifier(entity)] else { return nil }
        let id = ManagedObjectID(entity: entity, store: loaded.tag, primaryKey: try cells[0].decode(Int64.self))
        var values: [PropertyValue] = []
        values.reserveCapacity(entity.slots.count)
        for property in entity.slots {
            guard let column = columns[property.slot] else {
                values.append(.null)
                continue
            }
            let cell = cells[3 + column]
            if let attribute = property as? AttributeDescription {
                values.append(try PostgresValueCoding.propertyValue(cell, type: attribute.attributeType))
            } else if let key = try cell.decode(Int64?.self), let codeColumn = codeColumns[property.slot],
                      let code = try cells[3 + codeColumn].decode(Int64?.self), let destination = loaded.entityByCode[code] {
                values.append(.object(ManagedObjectID(entity: destination, store: loaded.tag, primaryKey: key)))
            } else {
                values.append(.null)
            }
        }
        return RowSnapshot(objectID: id, values: values, version: try cells[2].decode(Int64.self))
    }
}
#endif
