/// A controller's live results: the index of row keys in sections, and the processing that keeps
/// it in step with the context, a change at a time.
///
/// A batch costs about k·log n for k affected objects among n results: old places are found by
/// binary search on the keys rows were placed with (a filter answers "not among the results" for
/// most objects outside them), new places by binary search among the rows the batch leaves alone,
/// and the pure ``ChangeClassifier`` decides what to report.
final class FetchedResultsEngine {
    let configuration: FetchedResultsConfiguration
    let source: ResultsSource
    let coding: RowKeyCoding
    let reader: SortKeyReader
    private(set) var index: ResultIndex
    /// For a request with `fetchOffset` or `fetchLimit` followed live: the result's first rows,
    /// of which the index holds the window's (see `FetchedResultsEngine+Window.swift`).
    var window: WindowHead?
    private var filter: RowFilter
    private let heads: ChunkHeads
    /// The predicate changes are classified with: the request's, read again before each batch
    /// (``follow(requestPredicate:)``).
    private(set) var predicate: ResolvedPredicate? {
        didSet {
            rowGuard = RowGuard(predicate)
            guardRevision += 1
        }
    }
    /// What the predicate asks of a row's own attributes, for routing merged rows.
    private(set) var rowGuard: RowGuard
    /// Counts changes of ``rowGuard``, for routers that index it.
    private(set) var guardRevision = 0
    /// The request's predicate that ``predicate`` was last resolved from; `.none` until the
    /// first batch. Resolving allocates a tree, and a server's thousands of controllers each see
    /// every merge, so an unchanged request is not resolved again.
    private var predicateResolvedFrom: FetchPredicate??

    init(configuration: FetchedResultsConfiguration, source: ResultsSource, coding: RowKeyCoding, index: ResultIndex,
         window: WindowHead? = nil) {
        self.configuration = configuration
        self.source = source
        self.coding = coding
        self.index = index
        self.window = window
        predicate = configuration.plan.predicate
        rowGuard = RowGuard(configuration.plan.predicate)
        reader = SortKeyReader(sortKeys: configuration.plan.sortKeys, coding: coding, source: source, resultCount: index.count)
        filter = RowFilter(index.allRowKeys, expectedCount: index.count)
        heads = ChunkHeads(index: index, reader: reader)
        reader.resultRows = { [unowned self] limit in self.index.count <= limit ? self.index.allRowKeys : nil }
    }

    /// A batch ready to be reported and applied.
    struct PreparedBatch {
        let classified: ClassifiedBatch
        /// The sort keys of the rows the batch places.
        let newKeys: [Int64: SortKeyReader.Key]
        /// The objects the batch names, by row key, for the delegate.
        let objects: [Int64: ManagedObject]
        /// A windowed controller's head after the batch.
        var window: WindowHead?
    }

    /// Classifies later changes with `requestPredicate`, the request's predicate now (Core Data
    /// reads it again for every batch), resolving it only when it differs from the last one.
    ///
    /// - Throws: ``FetchRequestError`` when it no longer fits the entity; ``predicate`` is then
    ///   left as it was.
    func follow(requestPredicate: FetchPredicate?) throws {
        if let last = predicateResolvedFrom, last == requestPredicate { return }
        predicate = try requestPredicate?.resolved(for: configuration.plan.entity)
        predicateResolvedFrom = .some(requestPredicate)
    }

    // MARK: Change processing

    /// What a context event changes in the results, without changing anything yet; nil when it
    /// changes nothing.
    func prepare(_ event: ContextEvent) throws -> PreparedBatch? {
        if let window { return try prepareWindowed(event, head: window) }
        guard let rows = try AffectedRowCollector(engine: self).rows(of: event), !rows.isEmpty else { return nil }
        let removals = try oldPositions(of: rows)
        var search = PositionSearch(index: index, reader: reader, heads: heads)
        search.removedPositions = removals.map(\.position).sorted()
        // New places are searched among the old rows. Those taken out are compared by the keys
        // they were placed with, when the reader still has them (held for the whole search);
        // the others are never compared: an object's values before this event need not be what
        // its row was placed with (another program may have changed the row in between).
        reader.batchOldKeys = [:]
        var uncomparable: [Int] = []
        for removal in removals {
            if let key = reader.knownKey(of: removal.rowKey) {
                reader.batchOldKeys[removal.rowKey] = key
            } else {
                uncomparable.append(removal.position)
            }
        }
        search.uncomparable = PositionRuns(sorted: uncomparable.sorted())
        defer { reader.batchOldKeys = [:] }

        var placed: [(row: AffectedRow, key: SortKeyReader.Key, section: String)] = []
        let evaluator = PredicateEvaluator()
        let removed = Set(removals.map(\.rowKey))
        for row in rows {
            guard let object = row.object, !object.isDeleted, object.managedObjectContext === source.context else { continue }
            // An ID change renames a row of the results. An object not among them yet (an insert
            // given its permanent ID by obtainPermanentIDs before changes were processed) enters
            // with the event that reports its insert, not before.
            if row.previousRowKey != nil, !removed.contains(row.indexedRowKey) { continue }
            if let predicate, !(try evaluator.evaluate(predicate, on: object)) { continue }
            let section = configuration.section.map { $0.name(of: $0.value(of: object)) } ?? ""
            placed.append((row, reader.currentValues(of: object), section))
        }
        // Nothing leaves the results and nothing enters: so it is for most controllers of a
        // merge, which see every changed row of their context.
        guard !removals.isEmpty || !placed.isEmpty else { return nil }
        let gaps = try search.gaps(of: placed.map { ($0.key, $0.row.rowKey) })
        let order = placed.indices.sorted { lhs, rhs in
            if gaps[lhs] != gaps[rhs] { return gaps[lhs] < gaps[rhs] }
            return reader.precedes(placed[lhs].key, placed[lhs].row.rowKey, placed[rhs].key, placed[rhs].row.rowKey)
        }
        let placements = order.map { index in
            ChangeClassifier.Placement(rowKey: placed[index].row.rowKey, previousRowKey: placed[index].row.previousRowKey,
                                       gap: gaps[index], sectionName: placed[index].section,
                                       keysChanged: placed[index].row.keysChanged, reportsUpdate: placed[index].row.reportsUpdate)
        }
        let classifier = ChangeClassifier(oldSections: index.sectionShapes, isSectioned: configuration.section != nil)
        let classified = classifier.classify(removals: removals, placements: placements)
        guard !classified.isEmpty else { return nil }
        var objects: [Int64: ManagedObject] = [:]
        for row in rows {
            if let object = row.object ?? row.deletedObject { objects[row.rowKey] = object }
        }
        return PreparedBatch(classified: classified,
                             newKeys: Dictionary(placed.map { ($0.row.rowKey, $0.key) }, uniquingKeysWith: { first, _ in first }),
                             objects: objects)
    }

    /// Whether the row may be among the results, or among a windowed controller's head: false
    /// means it is not (a filter, no search).
    func mayHold(_ rowKey: Int64) -> Bool {
        filter.mayContain(rowKey) || window?.contains(rowKey) == true
    }

    /// Moves the index to the batch's new contents.
    func apply(_ batch: PreparedBatch, indexTitle: (String) -> String?) {
        index.apply(batch.classified, indexTitle: indexTitle)
        if let head = batch.window { window = head }
        for change in batch.classified.rowChanges where change.type == .delete {
            if let rowKey = change.oldRowKey {
                reader.forget(rowKey)
                filter.remove(rowKey)
            }
        }
        for (rowKey, key) in batch.newKeys {
            reader.remember(key, for: rowKey)
            filter.add(rowKey)
        }
        heads.batchPlaced(batch.newKeys)
        if filter.needsRebuild(currentCount: index.count) {
            filter = RowFilter(index.allRowKeys, expectedCount: index.count)
        }
    }

    /// Old places of the affected rows that are among the results.
    private func oldPositions(of rows: [AffectedRow]) throws -> [ChangeClassifier.Removal] {
        let candidates = rows.filter { filter.mayContain($0.indexedRowKey) }
        guard !candidates.isEmpty else { return [] }
        let lookups = candidates.map { row in (key: reader.knownKey(of: row.indexedRowKey) ?? row.oldKey, rowKey: row.indexedRowKey) }
        // Rows of this batch that head chunks are compared by these keys while the others are
        // looked for.
        reader.batchOldKeys = Dictionary(lookups.compactMap { lookup in lookup.key.map { (lookup.rowKey, $0) } },
                                         uniquingKeysWith: { first, _ in first })
        defer { reader.batchOldKeys = [:] }
        let found = try PositionSearch(index: index, reader: reader, heads: heads).positions(of: lookups)
        var removals: [ChangeClassifier.Removal] = []
        var seen = Set<Int>()
        for (lookup, position) in zip(lookups, found) {
            guard let position, seen.insert(position).inserted else { continue }
            removals.append(.init(rowKey: lookup.rowKey, position: position))
        }
        return removals
    }

    // MARK: Reading results

    func objectID(atPosition position: Int) -> ManagedObjectID {
        coding.objectID(for: index.rowKey(at: position))
    }

    func position(ofSection section: Int, row: Int) -> Int {
        index.position(section: section, row: row)
    }
}

extension FetchedResultsEngine {
    /// The position of an object among the results, found by the key it was placed with (or its
    /// values as of the last processed changes); nil when it is not among them.
    func position(of id: ManagedObjectID, object: ManagedObject?) -> Int? {
        guard let rowKey = coding.rowKey(for: id), filter.mayContain(rowKey) else { return nil }
        let key = reader.knownKey(of: rowKey) ?? object.flatMap { $0.isFault ? nil : reader.processedValues(of: $0) }
        do {
            return try PositionSearch(index: index, reader: reader, heads: heads).positions(of: [(key, rowKey)])[0]
        } catch {
            Log.context.error("finding \(id) among fetched results: \(error)")
            return nil
        }
    }
}
