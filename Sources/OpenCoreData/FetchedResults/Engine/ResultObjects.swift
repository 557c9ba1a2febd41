/// Objects for result rows, created when read: a row's object is a fault until its batch loads,
/// and the batches read last stay in memory so that reading neighbouring rows costs nothing.
final class ResultObjects {
    private let source: ResultsSource
    private let coding: RowKeyCoding
    private let batchSize: Int
    private let prefetchKeyPaths: [String]?
    private let returnsObjectIDs: Bool
    private var recentBatches: [[ManagedObject]] = []

    private static let batchesKept = 4
    /// The batch size used when the request has none: the controller never loads every row.
    static let defaultBatchSize = 50

    init(source: ResultsSource, coding: RowKeyCoding, configuration: FetchedResultsConfiguration) {
        self.source = source
        self.coding = coding
        batchSize = configuration.batchSize > 0 ? configuration.batchSize : Self.defaultBatchSize
        prefetchKeyPaths = configuration.prefetchKeyPaths
        returnsObjectIDs = configuration.returnsObjectIDs
    }

    /// The result at a position of `index`: an object, or an ID for ID results.
    func result(at position: Int, in index: ResultIndex) -> Any {
        let id = coding.objectID(for: index.rowKey(at: position))
        if returnsObjectIDs { return id }
        let object = source.context.object(with: id)
        if source.needsLoading(object) {
            loadBatch(containing: position, in: index)
        }
        return object
    }

    /// The object for a row key, without loading anything.
    func object(forRowKey rowKey: Int64) -> Any {
        let id = coding.objectID(for: rowKey)
        return returnsObjectIDs ? id : source.context.object(with: id)
    }

    private func loadBatch(containing position: Int, in index: ResultIndex) {
        let start = (position / batchSize) * batchSize
        let objects = (start..<min(start + batchSize, index.count)).map { position in
            source.context.object(with: coding.objectID(for: index.rowKey(at: position)))
        }
        recentBatches.append(objects)
        if recentBatches.count > Self.batchesKept { recentBatches.removeFirst() }
        let faults = objects.filter { source.needsLoading($0) }
        guard !faults.isEmpty else { return }
        do {
            try source.load(faults, prefetching: prefetchKeyPaths)
        } catch {
            Log.context.error("loading a batch of \(faults.count) fetched results: \(error)")
        }
    }
}
