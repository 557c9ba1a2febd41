/// Objects for result rows, created when read: a row's object is a fault until its batch loads,
/// and the batches read last stay in memory so that reading neighbouring rows costs nothing.
final class ResultObjects {
    private let context: ManagedObjectContext
    private let coding: RowKeyCoding
    private let batchSize: Int
    private let prefetchKeyPaths: [String]?
    private let returnsObjectIDs: Bool
    private var recentBatches: [[ManagedObject]] = []

    private static let batchesKept = 4
    /// The batch size used when the request has none: the controller never loads every row.
    static let defaultBatchSize = 50

    init(context: ManagedObjectContext, coding: RowKeyCoding, configuration: FetchedResultsConfiguration) {
        self.context = context
        self.coding = coding
        batchSize = configuration.batchSize > 0 ? configuration.batchSize : Self.defaultBatchSize
        prefetchKeyPaths = configuration.prefetchKeyPaths
        returnsObjectIDs = configuration.returnsObjectIDs
    }

    /// The result at a position of `index`: an object, or an ID for ID results.
    func result(at position: Int, in index: ResultIndex) -> Any {
        let id = coding.objectID(for: index.rowKey(at: position))
        if returnsObjectIDs { return id }
        let object = context.object(with: id)
        if object.state.isFault, object.faultSource == nil {
            loadBatch(containing: position, in: index)
        }
        return object
    }

    /// The object for a row key, without loading anything.
    func object(forRowKey rowKey: Int64) -> Any {
        let id = coding.objectID(for: rowKey)
        return returnsObjectIDs ? id : context.object(with: id)
    }

    private func loadBatch(containing position: Int, in index: ResultIndex) {
        let start = (position / batchSize) * batchSize
        let objects = (start..<min(start + batchSize, index.count)).map { context.object(with: coding.objectID(for: index.rowKey(at: $0))) }
        recentBatches.append(objects)
        if recentBatches.count > Self.batchesKept { recentBatches.removeFirst() }
        let faults = objects.filter { $0.state.isFault && $0.faultSource == nil }
        guard !faults.isEmpty else { return }
        do {
            for snapshot in try context.parentSnapshots(for: faults.map(\.objectID)) {
                _ = context.object(for: snapshot, asFault: true)
            }
            try context.prefetch(prefetchKeyPaths, for: faults)
        } catch {
            Log.context.error("loading a batch of \(faults.count) fetched results: \(error)")
        }
    }
}
