/// The object IDs of a batched fetch (``FetchRequest/fetchBatchSize`` > 0). The results are
/// faults; when one fires, every fault of its batch loads in one query, as Core Data's batched
/// arrays do.
final class BatchFaultLoader {
    let ids: [ManagedObjectID]
    let batchSize: Int
    /// Relationships to prefetch for each batch as it loads.
    let prefetchKeyPaths: [String]?

    init(ids: [ManagedObjectID], batchSize: Int, prefetchKeyPaths: [String]? = nil) {
        self.ids = ids
        self.batchSize = max(1, batchSize)
        self.prefetchKeyPaths = prefetchKeyPaths
    }

    /// The object at `index`, a fault that knows its batch unless it is already loaded.
    func object(at index: Int, in context: ManagedObjectContext) -> ManagedObject {
        let object = context.objectOnQueue(with: ids[index])
        if object.state.isFault, object.faultSource == nil {
            object.faultSource = .batch(self, index: index)
        }
        return object
    }

    /// The objects of the batches loaded last, kept alive so that reading neighbours does not
    /// load them again (the context holds unchanged objects weakly).
    private var recentBatches: [[ManagedObject]] = []
    private static let batchesKept = 4

    /// Loads the faults of the batch holding `index` with one read from the parent store.
    func loadBatch(containing index: Int, in context: ManagedObjectContext) {
        let start = (index / batchSize) * batchSize
        let objects = (start..<min(start + batchSize, ids.count)).map { context.objectOnQueue(with: ids[$0]) }
        let faults = objects.filter { object in
            guard object.state.isFault else { return false }
            if case .snapshot = object.faultSource { return false }
            return true
        }
        recentBatches.append(objects)
        if recentBatches.count > Self.batchesKept { recentBatches.removeFirst() }
        guard !faults.isEmpty else { return }
        do {
            let snapshots = try context.parentSnapshots(for: faults.map(\.objectID))
            let byID = Dictionary(snapshots.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            for object in faults {
                guard let snapshot = byID[object.objectID] else { continue }
                object.faultSource = nil
                object.fill(from: snapshot, in: context)
                context.awakeFromFetch(object)
            }
            try context.prefetch(prefetchKeyPaths, for: faults)
        } catch {
            Log.context.error("loading a batch of \(faults.count) objects: \(error)")
        }
    }
}
