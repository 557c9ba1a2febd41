#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// A save's updated rows: one `UPDATE … FROM unnest(…)` per table and set of changed columns,
/// each column's new values one array parameter (``PostgresArrayParameter``), instead of one
/// statement (one round trip) per row. A row alone in its group keeps the one-row statement.
extension PostgresStoreBackend {
    /// Writes the changed columns of `updates`; each row's version was checked under its lock.
    func update(_ updates: [RowUpdate], _ connection: PooledConnection, loaded: Loaded) throws {
        var order: [UpdateGroup.Key] = []
        var groups: [UpdateGroup.Key: [RowUpdate]] = [:]
        for update in updates {
            let key = UpdateGroup.Key(entity: ObjectIdentifier(update.snapshot.objectID.entity), slots: update.changedSlots.sorted())
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(update)
        }
        for key in order {
            guard let group = groups[key], let first = group.first else { continue }
            if group.count == 1 {
                try update(first, connection, loaded: loaded)
            } else {
                try update(group, slots: key.slots, connection, loaded: loaded)
            }
        }
    }

    /// Rows of one entity whose changed slots are `slots`, in one statement.
    private func update(_ group: [RowUpdate], slots: [Int], _ connection: PooledConnection, loaded: Loaded) throws {
        let entity = group[0].snapshot.objectID.entity
        guard let table = loaded.schema.layout.table(for: entity) else { return }
        let columns = Self.columnsByName(table)
        var binds = PostgresBindings()
        var keys = PostgresArrayParameter(.integer, capacity: group.count)
        for update in group { keys.append(update.snapshot.objectID.key) }
        binds.append(keys)
        var unnested = ["$1::bigint[]"]
        var assignments: [String] = []
        for slot in slots {
            let property = entity.slots[slot]
            for (position, name) in loaded.schema.layout.columnNames(of: property).enumerated() {
                guard let column = columns[name] else { continue }
                var values = PostgresArrayParameter(.init(column), capacity: group.count)
                for update in group {
                    let value = update.snapshot.value(at: slot)
                    if position == 1 {
                        // A to-one's second column: the destination's entity code.
                        if let id = value.objectID { values.append(loaded.code(of: id.entity)) } else { values.appendNull() }
                    } else {
                        try values.append(value)
                    }
                }
                binds.append(values)
                unnested.append("$\(binds.count)\(values.element.cast)")
                assignments.append("\(quoted(name)) = u.c\(unnested.count - 1)")
            }
        }
        assignments.append("\"_version\" = t.\"_version\" + 1")
        let aliases = (0..<unnested.count).map { "c\($0)" }.joined(separator: ", ")
        _ = try connection.query(PostgresQuery(unsafeSQL: """
            UPDATE \(loaded.schema.qualified(table.name)) AS t SET \(assignments.joined(separator: ", ")) \
            FROM unnest(\(unnested.joined(separator: ", "))) AS u(\(aliases)) WHERE t."_pk" = u.c0
            """, binds: binds))
    }

    /// Writes the changed columns of one row.
    private func update(_ update: RowUpdate, _ connection: PooledConnection, loaded: Loaded) throws {
        let id = update.snapshot.objectID
        guard let table = loaded.schema.layout.table(for: id.entity) else { return }
        let columns = Self.columnsByName(table)
        var binds = PostgresBindings()
        var assignments: [String] = []
        for slot in update.changedSlots {
            let property = id.entity.slots[slot]
            for (position, name) in loaded.schema.layout.columnNames(of: property).enumerated() {
                guard let column = columns[name] else { continue }
                try Self.append(column: position, of: update.snapshot.value(at: slot), to: &binds, loaded: loaded)
                assignments.append("\(quoted(name)) = \(PostgresValueCoding.placeholder(binds.count, for: column))")
            }
        }
        assignments.append("\"_version\" = \"_version\" + 1")
        binds.append(id.key)
        _ = try connection.query(PostgresQuery(
            unsafeSQL: "UPDATE \(loaded.schema.qualified(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \"_pk\" = $\(binds.count)",
            binds: binds))
    }
}

/// Updates written by one statement: of one entity, changing the same slots.
private enum UpdateGroup {
    struct Key: Hashable {
        let entity: ObjectIdentifier
        let slots: [Int]
    }
}
#endif
