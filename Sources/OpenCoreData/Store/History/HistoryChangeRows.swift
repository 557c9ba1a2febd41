package import Foundation

// The rows a store's history tables hold for a save, shared by the SQLite and PostgreSQL stores
// (which differ only in how they write and read them): which change rows a save records, in
// which order, with which tombstones and prior values; how the rows read back expand into
// HistoryChangeRecords; and when a store applies its retention rule.

/// New rows of one entity with consecutive primary keys, recorded as one change row.
package struct HistoryInsertRun: Sendable {
    package let entity: EntityDescription
    package let firstKey: Int64
    package var count: Int64

    package init(entity: EntityDescription, firstKey: Int64, count: Int64) {
        self.entity = entity
        self.firstKey = firstKey
        self.count = count
    }

    /// The runs of new rows `inserted`, to which a save gave the primary keys `keys`.
    package static func runs(of inserted: [RowSnapshot], keys: [Int64]) -> [HistoryInsertRun] {
        var runs: [HistoryInsertRun] = []
        for (row, key) in zip(inserted, keys) {
            let entity = row.objectID.entity
            if let last = runs.last, last.entity === entity, last.firstKey + last.count == key {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(HistoryInsertRun(entity: entity, firstKey: key, count: 1))
            }
        }
        return runs
    }

    /// The runs of new rows of `entity` given the primary keys `keys` (a batch insert's).
    package static func runs(of entity: EntityDescription, keys: [Int64]) -> [HistoryInsertRun] {
        var runs: [HistoryInsertRun] = []
        for key in keys {
            if let last = runs.last, last.firstKey + last.count == key {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(HistoryInsertRun(entity: entity, firstKey: key, count: 1))
            }
        }
        return runs
    }
}

/// One change row a save records: `count` objects of `entity` with consecutive keys from `key`
/// (more than one only for runs of new rows), numbered by as many consecutive change IDs.
package struct HistoryChangeRow {
    package var type: PersistentHistoryChangeType
    package var entity: EntityDescription
    package var key: Int64
    package var count: Int64
    /// For updates: the changed properties' names, comma-separated.
    package var properties: String?
    package var tombstone: [String: PropertyValue]
    package var priorValues: [String: PropertyValue]

    /// The change rows of a save, in the order they are numbered: new rows (in runs), updates,
    /// deletions; tombstones and prior values come from `preImages`, the rows before the save.
    package static func rows(inserted: [HistoryInsertRun], updated: [RowUpdate], deleted: [RowDeletion],
                             preImages: [ManagedObjectID: RowSnapshot]) -> [HistoryChangeRow] {
        var rows = inserted.map {
            HistoryChangeRow(type: .insert, entity: $0.entity, key: $0.firstKey, count: $0.count, properties: nil,
                             tombstone: [:], priorValues: [:])
        }
        for update in updated {
            let id = update.snapshot.objectID
            rows.append(HistoryChangeRow(
                type: .update, entity: id.entity, key: id.key, count: 1,
                properties: HistoryChanges.updatedProperties(of: update).joined(separator: ","), tombstone: [:],
                priorValues: HistoryChanges.priorValues(of: id, slots: update.changedSlots, preImage: preImages[id])))
        }
        for deletion in deleted {
            let id = deletion.objectID
            rows.append(HistoryChangeRow(
                type: .delete, entity: id.entity, key: id.key, count: 1, properties: nil,
                tombstone: HistoryChanges.tombstone(of: id, preImage: preImages[id]),
                priorValues: HistoryChanges.priorValues(of: id, slots: nil, preImage: preImages[id])))
        }
        return rows
    }

    /// The change rows of a set-based batch update `update`: one update per row of `updated` (an
    /// entity code, a primary key, and the values overwritten, in the order of the update's
    /// assignments), naming the properties set in the order of the row's entity's slots, as a
    /// save records an update.
    package static func rows(updated: [(code: Int64, key: Int64, prior: [PropertyValue])], by update: StoreBatchUpdate,
                             entityByCode: [Int64: EntityDescription]) -> [HistoryChangeRow] {
        let names = update.assignments.map(\.attribute.name)
        var properties: [Int64: String] = [:]
        return updated.map { row in
            let changed = properties[row.code] ?? update.updatedProperties(of: entityByCode[row.code])
            properties[row.code] = changed
            return HistoryChangeRow(type: .update, entity: entityByCode[row.code] ?? update.fetch.entity, key: row.key, count: 1,
                                    properties: changed, tombstone: [:],
                                    priorValues: Dictionary(zip(names, row.prior), uniquingKeysWith: { first, _ in first }))
        }
    }
}

/// A change row as a store reads it back, before it is expanded into one record per object.
package struct StoredHistoryChange {
    package var changeID: Int64
    package var transaction: Int64
    package var type: Int64
    package var entityCode: Int64
    package var firstKey: Int64
    package var count: Int64
    package var properties: String?

    package init(changeID: Int64, transaction: Int64, type: Int64, entityCode: Int64, firstKey: Int64, count: Int64, properties: String?) {
        self.changeID = changeID
        self.transaction = transaction
        self.type = type
        self.entityCode = entityCode
        self.firstKey = firstKey
        self.count = count
        self.properties = properties
    }

    /// The change's records, one per object, appended to `result` under its transaction's
    /// number; nothing for a type or an entity code the store does not know.
    ///
    /// - Parameters:
    ///   - entityByCode: The store's entities by code.
    ///   - storeIdentifier: The store's identifier, for the object IDs.
    ///   - tombstone: The tombstone of a change ID, decoded for the object's entity.
    ///   - priorValues: The prior values of a change ID, decoded for the object's entity.
    package func expand(into result: inout [Int64: [HistoryChangeRecord]], entityByCode: [Int64: EntityDescription],
                        storeIdentifier: String,
                        tombstone: (Int64, EntityDescription) -> [String: PropertyValue],
                        priorValues: (Int64, EntityDescription) -> [String: PropertyValue]) {
        guard let type = PersistentHistoryChangeType(rawValue: Int(type)), let entity = entityByCode[entityCode] else { return }
        let names = properties.map { $0.split(separator: ",").map(String.init) } ?? []
        for offset in 0..<count {
            let id = ManagedObjectID(entity: entity, storeIdentifier: storeIdentifier, primaryKey: firstKey + offset)
            result[transaction, default: []].append(HistoryChangeRecord(
                changeID: changeID + offset, objectID: id, type: type, updatedProperties: names,
                tombstone: tombstone(changeID + offset, entity), priorValues: priorValues(changeID + offset, entity)))
        }
    }
}

/// When a store applies its retention rule inside a save: at most once per check interval per
/// backend, the first save after the interval doing it.
package final class HistoryPruneSchedule: Sendable {
    private let last = Locked<Date?>(nil)

    package init() {}

    /// Whether a save at `now` prunes; if so, the interval starts again from `now`.
    package func isDue(now: Date, settings: PersistentHistorySettings) -> Bool {
        last.withLock { last in
            guard last.map({ now.timeIntervalSince($0) >= settings.retention.checkInterval }) ?? true else { return false }
            last = now
            return true
        }
    }

    /// Records a prune at `now` made outside a save.
    package func pruned(at now: Date) {
        last.withLock { $0 = now }
    }
}
