/// Change processing for a request with `fetchOffset` or `fetchLimit`: the controller keeps
/// showing exactly the rows a fresh fetch would show.
///
/// The engine keeps the result's first rows with their keys (``WindowHead``: the offset, the
/// window and some slack after it), and a batch moves rows in and out of that head by key. The
/// window is then the head's rows from the offset on, and the batch reported is the difference
/// between the window before and after: rows pushed out are deleted, rows pulled in (by a change
/// before the window, or from the slack when a row leaves) are inserted, rows that stay are moved
/// or updated as elsewhere. A change to a row the head does not hold and will not hold (it sorts
/// after the head's last row) costs a predicate evaluation and a key comparison. The store is
/// read only when rows left the head until it no longer covers the window: then the head is read
/// again, with slack, so that this happens about once every slack's worth of departures.
extension FetchedResultsEngine {
    /// Reads the keys of the head's rows, as the fetch left them.
    func readWindowKeys() throws {
        try window?.readKeys(using: reader)
    }

    func prepareWindowed(_ event: ContextEvent, head before: WindowHead) throws -> PreparedBatch? {
        guard let rows = try AffectedRowCollector(engine: self).rows(of: event), !rows.isEmpty else { return nil }
        // The reader may hold keys these rows had before the event (read for the head, placed in
        // the window, or read before the head let them go): a later read of the head must not
        // find them, whether or not this event changes the head.
        for row in rows {
            reader.forget(row.indexedRowKey)
            reader.forget(row.rowKey)
        }
        var head = before
        let evaluator = PredicateEvaluator()
        var leaving = Set<Int64>()
        var entering: [(row: AffectedRow, key: SortKeyReader.Key)] = []
        for row in rows {
            let wasMember = head.contains(row.indexedRowKey)
            var key: SortKeyReader.Key?
            // As in `prepare(_:)`: an object gone, in another context, or renamed before it entered
            // the results has no place; the others have one if they match.
            if let object = row.object, !object.isDeleted, object.managedObjectContext === source.context,
               row.previousRowKey == nil || wasMember, try predicate.map({ try evaluator.evaluate($0, on: object) }) ?? true {
                key = reader.currentValues(of: object)
            }
            if !wasMember, key.map({ !head.admits($0, row.rowKey, reader: reader) }) ?? true { continue }
            if wasMember { leaving.insert(row.indexedRowKey) }
            if let key { entering.append((row, key)) }
        }
        guard !leaving.isEmpty || !entering.isEmpty else { return nil }
        let fresh = Dictionary(entering.map { ($0.row.rowKey, $0.key) }, uniquingKeysWith: { first, _ in first })
        let bound = head
        head.remove(leaving)
        for (row, key) in entering where bound.admits(key, row.rowKey, reader: reader) {
            head.insert(row.rowKey, key: key, reader: reader)
        }
        if head.needsRefill { head = try refilledHead(head, knowing: fresh) }
        head.trim()

        let affected = Dictionary(entering.map { ($0.row.rowKey, $0.row) }, uniquingKeysWith: { first, _ in first })
        var objects: [Int64: ManagedObject] = [:]
        for row in rows {
            if let object = row.object ?? row.deletedObject { objects[row.rowKey] = object }
        }
        let batch = windowBatch(to: head, leaving: leaving, affected: affected, objects: objects)
        guard !batch.classified.isEmpty else {
            // Rows moved only before or after the window: nothing to report, and nothing of the
            // index to change.
            window = head
            return nil
        }
        return batch
    }

    /// The batch from the window shown to another one of the same results (paging); nil when
    /// the rows shown stay the same.
    func prepareWindowChange(to window: FetchWindow) throws -> PreparedBatch? {
        guard let before = self.window else { return nil }
        var head = before.moved(to: window)
        if head.needsRefill { head = try refilledHead(head) }
        head.trim()
        let batch = windowBatch(to: head, leaving: [], affected: [:], objects: [:])
        guard !batch.classified.isEmpty else {
            self.window = head
            return nil
        }
        return batch
    }

    /// The head read again from the store: its first rows, as many as the window needs with
    /// slack. `fresh` holds the keys of rows the batch changed, which the store's rows are not
    /// read for.
    private func refilledHead(_ head: WindowHead, knowing fresh: [Int64: SortKeyReader.Key] = [:]) throws -> WindowHead {
        var plan = configuration.plan
        plan.identifiersOnly = true
        plan.offset = 0
        plan.limit = head.window.headFetchLimit
        let result = try source.matchingRows(plan, includesPendingChanges: configuration.includesPendingChanges)
        let rowKeys = try result.ids.map { id in
            guard let rowKey = coding.rowKey(for: id) else { throw InitialFetch.keyTooLarge(id.key) }
            return rowKey
        }
        return try head.refilled(with: rowKeys, asked: plan.limit, knowing: fresh, reader: reader)
    }

    /// The batch from the rows the window showed to the ones it shows: rows of the old window the
    /// event left alone and that are still shown keep their order and stay; the others are taken
    /// out, and the rows of the new window that did not stay are placed, each after the staying
    /// rows before it.
    private func windowBatch(to after: WindowHead, leaving: Set<Int64>, affected: [Int64: AffectedRow],
                             objects: [Int64: ManagedObject]) -> PreparedBatch {
        let oldRows = index.allRowKeys
        let newRows = after.rows[after.visible]
        let shown = Set(newRows)
        var removals: [ChangeClassifier.Removal] = []
        var staying = Set<Int64>()
        for (position, rowKey) in oldRows.enumerated() {
            if leaving.contains(rowKey) || !shown.contains(rowKey) {
                removals.append(.init(rowKey: rowKey, position: position))
            } else {
                staying.insert(rowKey)
            }
        }
        var placements: [ChangeClassifier.Placement] = []
        var newKeys: [Int64: SortKeyReader.Key] = [:]
        var gap = 0
        for (rowKey, key) in zip(newRows, after.keys[after.visible]) {
            if staying.contains(rowKey) {
                gap += 1
                continue
            }
            let row = affected[rowKey]
            placements.append(.init(rowKey: rowKey, previousRowKey: row?.previousRowKey, gap: gap,
                                    sectionName: sectionName(of: rowKey, row: row),
                                    keysChanged: row?.keysChanged ?? true, reportsUpdate: row?.reportsUpdate ?? true))
            newKeys[rowKey] = key
        }
        let classifier = ChangeClassifier(oldSections: index.sectionShapes, isSectioned: configuration.section != nil)
        return PreparedBatch(classified: classifier.classify(removals: removals, placements: placements),
                             newKeys: newKeys, objects: objects, window: after)
    }

    /// The section a row of the window goes in: from its object when the event named it, else
    /// from the object of a row that moved into the window from the head's other rows.
    private func sectionName(of rowKey: Int64, row: AffectedRow?) -> String {
        guard let section = configuration.section else { return "" }
        let object = row?.object ?? source.context.object(with: coding.objectID(for: rowKey))
        return section.name(of: section.value(of: object))
    }
}
