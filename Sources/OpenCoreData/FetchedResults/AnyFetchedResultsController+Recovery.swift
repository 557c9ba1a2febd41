import Foundation

/// When a change batch cannot be computed (a store read fails), the controller says so and
/// catches up, instead of going stale silently as Core Data's does.
///
/// It keeps showing the rows it showed before the failure, so a list that applied every batch
/// still matches it; it reports the error to its delegate, its `failures` sequence and the log;
/// then it fetches again, right away on the context's queue and at each later change until that
/// succeeds, and reports one batch from the rows it showed to the fresh results.
extension AnyFetchedResultsController {
    /// What the controller missed since a batch failed.
    struct Staleness {
        var error: FetchedResultsError
        /// Objects the missed changes named: their rows may show other values.
        var missedObjects: Set<ManagedObjectID> = []
        /// A missed change touched every object (a reset, or every object refreshed).
        var missedEverything = false
        var catchUpScheduled = false

        mutating func note(_ event: ContextEvent) {
            switch event {
            case .objectsDidChange(let change):
                missedEverything = missedEverything || change.invalidatedAll
                for object in change.updated { missedObjects.insert(object.objectID) }
                for object in change.refreshed { missedObjects.insert(object.objectID) }
                for object in change.invalidated { missedObjects.insert(object.objectID) }
            case .didSave(let save):
                for object in save.updated { missedObjects.insert(object.objectID) }
            case .didMerge(let merge):
                for object in merge.refreshed { missedObjects.insert(object.objectID) }
                missedObjects.formUnion(merge.updated)
                missedObjects.formUnion(merge.changedKeys.keys)
            case .storeChangesMissed:
                missedEverything = true
            case .willSave, .objectIDsDidChange:
                break
            }
        }
    }

    /// A batch failed: remember what it was about, tell everyone, and catch up soon.
    func changeProcessingFailed(_ error: any Error, event: ContextEvent) {
        var staleness = self.staleness ?? Staleness(error: Self.failure(error))
        staleness.error = Self.failure(error)
        staleness.note(event)
        self.staleness = staleness
        reportFailure(staleness.error)
        scheduleCatchUp()
    }

    static func failure(_ error: any Error) -> FetchedResultsError {
        FetchedResultsError(FetchedResultsError.changeProcessingFailed,
                            "a fetched results controller could not follow a change (\(error)); it still shows its rows as they were, and fetches again to catch up",
                            underlyingError: error)
    }

    private func reportFailure(_ error: FetchedResultsError) {
        Log.context.error("\(error.message)")
        delegate?.controller(self, didFailWith: error)
        publish(error)
    }

    private func scheduleCatchUp() {
        guard staleness?.catchUpScheduled == false else { return }
        staleness?.catchUpScheduled = true
        managedObjectContext.perform { [weak self] in
            guard let self, self.staleness != nil else { return }
            self.staleness?.catchUpScheduled = false
            self.catchUp()
        }
    }

    /// Fetches the results again and reports the batch from what the controller showed to them;
    /// if the fetch fails too, reports that and stays as it was.
    func catchUp() {
        guard let staleness, let oldEngine = engine, !isDeliveringChanges else { return }
        let fresh: (engine: FetchedResultsEngine, objects: ResultObjects)
        do {
            fresh = try freshEngine(coding: oldEngine.coding)
        } catch {
            self.staleness?.error = Self.failure(error)
            reportFailure(Self.failure(error))
            return
        }
        let newIndex = fresh.engine.index
        let rows = newIndex.sections.flatMap { section in
            section.rows.map { ResultTransition.Row(rowKey: $0, sectionName: section.name) }
        }
        let missed = Set(staleness.missedObjects.compactMap { oldEngine.coding.rowKey(for: $0) })
        let batch = ResultTransition.batch(from: oldEngine.index.sectionShapes, rowKeys: oldEngine.index.allRowKeys, to: rows,
                                           isSectioned: sectionNameKeyPath != nil) { rowKey in
            staleness.missedEverything || missed.contains(rowKey)
        }
        self.staleness = nil
        isDeliveringChanges = true
        defer { isDeliveringChanges = false }
        deliver(batch, objects: [:], from: oldEngine.index, coding: oldEngine.coding) { [unowned self] in
            engine = fresh.engine
            objects = fresh.objects
        }
        writeCacheIfTracking()
    }

    /// A new engine on a fresh fetch of the request as it is now, as ``performFetch()`` makes.
    private func freshEngine(coding: RowKeyCoding) throws -> (engine: FetchedResultsEngine, objects: ResultObjects) {
        let configuration = try FetchedResultsConfiguration(request: currentRequest(), sectionNameKeyPath: sectionNameKeyPath,
                                                            source: source, keepsWindow: keepsFetchWindow)
        // Called while the context tells of an event: merging now would nest events in it.
        let engine = try makeEngine(configuration, coding: coding, fetched: try fetchIndex(configuration, coding: coding, mergingFirst: false))
        return (engine, ResultObjects(source: source, coding: coding, configuration: configuration))
    }
}
