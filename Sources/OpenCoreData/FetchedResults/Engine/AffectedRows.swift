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
    private var source: ResultsSource { engine.source }

    /// The affected rows, or nil when the event is not one the controller follows: events caused
    /// by merges (heard again as the did-merge event), saves, resets (Core Data does not
    /// report them; the client fetches again), and missed store changes (the controller fetches
    /// again itself).
    func rows(of event: ContextEvent) throws -> [AffectedRow]? {
        switch event {
        case .objectsDidChange(let change) where !change.causedByMerge && !change.invalidatedAll:
            return localRows(of: change)
        case .didMerge(let merge):
            return try mergedRows(of: merge)
        case .objectIDsDidChange(let mapping):
            return remappedRows(mapping)
        case .objectsDidChange, .willSave, .didSave, .storeChangesMissed:
            return nil
        }
    }

    private func localRows(of event: ContextEvent.ObjectsDidChange) -> [AffectedRow] {
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
    private func oldKey(of object: ManagedObject, in event: ContextEvent.ObjectsDidChange) -> SortKeyReader.Key? {
        guard !object.isFault else { return nil }
        return reader.processedValues(of: object, before: event)
    }

    private func mergedRows(of event: ContextEvent.DidMerge) throws -> [AffectedRow] {
        // Objects are found as the context's router found them when it routed the merge: the
        // same ones, registered by then.
        let digest = MergeDigest(event, source: source)
        let preImages = event.preImages
        var rows: [Int64: AffectedRow] = [:]
        for id in event.deleted {
            guard let rowKey = coding.rowKey(for: id) else { continue }
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: nil, keysChanged: true, oldKey: oldKey(of: rowKey, preImages[id]))
        }
        for id in event.inserted.union(event.updated).union(event.refreshed.map(\.objectID)) {
            guard let rowKey = coding.rowKey(for: id), rows[rowKey] == nil else { continue }
            let keys = event.changedKeys[id]
            rows[rowKey] = AffectedRow(rowKey: rowKey, object: try digest.object(for: id),
                                       keysChanged: event.inserted.contains(id) || keys.map { !$0.isDisjoint(with: engine.configuration.positionKeys) } ?? true,
                                       oldKey: oldKey(of: rowKey, preImages[id]))
        }
        return Array(rows.values)
    }

    /// A merged row's sort key before the merge, from its pre-image; only for a row that may be
    /// among the results, the one place it is looked for: a merge's rows are mostly elsewhere
    /// for most of a context's controllers, which all see them.
    private func oldKey(of rowKey: Int64, _ preImage: RowSnapshot?) -> SortKeyReader.Key? {
        guard engine.mayHold(rowKey) else { return nil }
        return preImage.map(reader.values(in:))
    }

    private func remappedRows(_ mapping: IDMapping) -> [AffectedRow] {
        mapping.compactMap { old, new in
            guard let oldKey = coding.rowKey(for: old), let newKey = coding.rowKey(for: new) else { return nil }
            // A child context may have let the object go after pushing it to its parent.
            let object = source.context.object(with: new)
            return AffectedRow(rowKey: newKey, previousRowKey: oldKey, object: object, keysChanged: false, reportsUpdate: false,
                               oldKey: object.isFault ? nil : reader.processedValues(of: object))
        }
    }
}
