extension ManagedObjectContext {
    /// Merges now, on this context's queue, every commit the store holds that this context has
    /// not merged yet (auto-merging root contexts only): a fetched results controller fetches its
    /// rows after it, so that they show the store as the context has seen it, and rows it reads
    /// later (with unmerged commits taken back out) agree with them. The merges reach the
    /// context's observers as they would a moment later from the queue.
    ///
    /// Returns false, merging nothing, while the context is telling its observers of an event:
    /// merges then would reach them inside it.
    func mergeEveryCommitSoFar() -> Bool {
        assertOnQueue()
        guard case .coordinator(let coordinator) = parentStore, automaticallyMergesChangesFromParent else { return true }
        guard deliveringEvent == nil else { return false }
        do {
            try coordinator.withSaveLock { coordinator.catchUpWithStore(through: try coordinator.store().backend.quietGeneration()) }
        } catch {
            Log.context.error("reading the store generation before a fetch: \(error)")
        }
        while mergeOldestUnmergedCommit() {}
        return true
    }

    /// Whether this context has merged every commit the store holds: true after a fetch that saw
    /// nothing the context had not merged. Always true for a context that does not merge
    /// automatically, whose fetches show the store as it is.
    func hasMergedEveryCommit() -> Bool {
        guard case .coordinator(let coordinator) = parentStore, automaticallyMergesChangesFromParent else { return true }
        do {
            return try coordinator.withSaveLock {
                try coordinator.store().backend.quietGeneration() <= coordinator.storeCursor && unmergedCommits.withLock { $0.isEmpty }
            }
        } catch {
            Log.context.error("reading the store generation after a fetch: \(error)")
            return true
        }
    }
}
