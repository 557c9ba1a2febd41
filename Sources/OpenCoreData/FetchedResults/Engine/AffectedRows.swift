/// The rows one context event may change in a controller's results, with what is known of each:
/// the object to evaluate, whether it is gone, whether its position keys changed, and its old
/// sort key when the event tells it.
struct AffectedRow {
    var rowKey: Int64
    /// The row's key in the results before the event, when the object's ID changed.
    var previousRowKey: Int64?
    /// The object as it is now; nil when it is gone.
    var object: ManagedObject?
    /// The object of a row this context deleted: what the delegate is handed for the deletion
    /// (a new object is no longer registered, and a lookup by its ID would make a stranger).
    var deletedObject: ManagedObject?
    var keysChanged: Bool
    var reportsUpdate = true
    /// The sort key the row was placed with, when the event tells it.
    var oldKey: SortKeyReader.Key?

    var indexedRowKey: Int64 { previousRowKey ?? rowKey }
}

/// Reads a context event into affected rows, for the fetched entities only.
struct AffectedRowCollector {
    let engine: FetchedResultsEngine

    private var coding: RowKeyCoding { engine.coding }
    private var reader: SortKeyReader { engine.reader }
    private var context: ManagedObjectContext { engine.context }

    /// The affected rows, or nil when the event is not one the controller follows: events caused
    /// by merges (heard again as the did-merge event), saves, and resets (Core Data does not
    /// report them; the client fetches again).
    func rows(of event: ContextEvent) throws -> [AffectedRow]? {
        if !event.permanentIDs.isEmpty { return remappedRows(event.permanentIDs) }
        switch event.kind {
        case .objectsDidChange where !event.causedByMerge && !event.invalidatedAll:
            return localRows(of: event)
        case .didMerge:
            return try mergedRows(of: event)
        default:
            return nil
        }
    }

    private func localRows(of event: ContextEvent) -> [AffectedRow] {
        var rows: [Int64: AffectedRow] = [:]
        for object in event.deleted.union(event.invalidated) {
            guard let rowKey = coding.rowKey(for: object.objectID) else { continue }
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: nil, deletedObject: object, keysChanged: true,
                                       oldKey: oldKey(of: object, in: event))
        }
        for object in event.inserted.union(event.updated).union(event.refreshed) where rows[coding.rowKey(for: object.objectID) ?? -1] == nil {
            guard let rowKey = coding.rowKey(for: object.objectID) else { continue }
            let isUpdate = event.updated.contains(object)
            let keysChanged = !isUpdate || !event.changedKeys(of: object).isDisjoint(with: engine.configuration.positionKeys)
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: object.isDeleted ? nil : object, keysChanged: keysChanged,
                                       oldKey: isUpdate ? oldKey(of: object, in: event) : nil)
        }
        return Array(rows.values)
    }

    /// An updated or deleted object's key before the event: its values now, with the slots the
    /// event changed put back.
    private func oldKey(of object: ManagedObject, in event: ContextEvent) -> SortKeyReader.Key? {
        guard !object.state.isFault else { return nil }
        let changed = event.oldValues[ObjectIdentifier(object)] ?? [:]
        guard !changed.isEmpty else { return reader.processedValues(of: object) }
        let saved = object.eventValues
        object.eventValues = changed.merging(saved) { eventValue, _ in eventValue }
        defer { object.eventValues = saved }
        return reader.processedValues(of: object)
    }

    private func mergedRows(of event: ContextEvent) throws -> [AffectedRow] {
        let saved = event.savedChanges
        let snapshots = Dictionary(((saved?.inserted ?? []) + (saved?.updated ?? [])).map { ($0.objectID, $0) },
                                   uniquingKeysWith: { first, _ in first })
        let preImages = saved?.preImages ?? [:]
        var rows: [Int64: AffectedRow] = [:]
        for id in event.deletedIDs {
            guard let rowKey = coding.rowKey(for: id) else { continue }
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: nil, keysChanged: true, oldKey: preImages[id].map(reader.values(in:)))
        }
        let changed = event.insertedIDs.union(event.updatedIDs).union(event.refreshed.map(\.objectID))
        var unread: [ManagedObjectID] = []
        for id in changed where context.registeredObject(for: id) == nil && snapshots[id] == nil {
            unread.append(id)
        }
        let read = Dictionary(try context.snapshotsAsSeen(for: unread).map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        for id in changed {
            guard let rowKey = coding.rowKey(for: id), rows[rowKey] == nil else { continue }
            let object: ManagedObject?
            if let registered = context.registeredObject(for: id) {
                object = registered
            } else if let snapshot = snapshots[id] ?? read[id] {
                object = context.object(for: snapshot, asFault: true)
            } else {
                object = nil
            }
            let keys = event.changedKeysByID[id]
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: object.flatMap { $0.isDeleted ? nil : $0 },
                                       keysChanged: event.insertedIDs.contains(id) || keys.map { !$0.isDisjoint(with: engine.configuration.positionKeys) } ?? true,
                                       oldKey: preImages[id].map(reader.values(in:)))
        }
        return Array(rows.values)
    }

    private func remappedRows(_ mapping: IDMapping) -> [AffectedRow] {
        mapping.compactMap { old, new in
            guard let oldKey = coding.rowKey(for: old), let newKey = coding.rowKey(for: new) else { return nil }
            // A child context may have let the object go after pushing it to its parent.
            let object = context.object(with: new)
            return AffectedRow(rowKey: newKey, previousRowKey: oldKey, object: object, keysChanged: false, reportsUpdate: false,
                               oldKey: object.state.isFault ? nil : reader.processedValues(of: object))
        }
    }
}
