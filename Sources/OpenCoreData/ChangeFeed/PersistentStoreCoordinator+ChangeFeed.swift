import Foundation

/// How a coordinator's contexts that merge automatically are given commits they did not make
/// (see ``StoreChangeFeed``).
extension PersistentStoreCoordinator {
    /// A store was loaded: its commits made elsewhere from now on reach this coordinator.
    func followCommits(to store: PersistentStore) {
        do {
            let (feed, generation) = try StoreChangeFeed.subscribe(self, to: store)
            withSaveLock { storeCursor = generation }
            storeChangeFeed = feed
        } catch {
            Log.store.error("following the commits of \(store): \(error); contexts will not merge commits made elsewhere")
        }
    }

    /// A store was removed: its feed forgets this coordinator.
    func storeWasRemoved(_ store: PersistentStore) {
        storeChangeFeed?.unsubscribe(store)
        storeChangeFeed = nil
    }

    /// The store committed a save of this coordinator's, whose generations are `generations`.
    /// Called under the save lock, before the save is announced: commits made elsewhere since
    /// the cursor are given to the contexts first, so that they merge in commit order. The other
    /// coordinators of the process and other processes are told.
    func storeCommitted(_ generations: CommitGenerations) {
        catchUpWithStore(through: generations.before)
        storeCursor = max(storeCursor, generations.after)
        storeChangeFeed?.committedHere()
    }

    /// Gives the contexts that merge automatically every commit after the cursor up to
    /// `generation`. Called under the save lock.
    ///
    /// - Parameter history: Reads the history in a read transaction the caller is in (see
    ///   ``PersistentStoreBackend/readingAttributes(of:_:_:)``); nil reads it in one of its own.
    func catchUpWithStore(through generation: Int64, readingHistory history: ((HistoryStart) throws -> [HistoryTransactionRecord])? = nil) {
        guard generation > storeCursor else { return }
        defer { storeCursor = generation }
        let contexts = automaticallyMergingContexts
        guard !contexts.isEmpty, let feed = storeChangeFeed, let store = persistentStores.first else { return }
        let change = feed.changes(after: storeCursor, through: generation, readingFrom: store, readingHistory: history)
        give(change?.naming(entitiesOf: managedObjectModel), to: contexts)
    }

    /// A batch request of this coordinator committed `request`: the contexts that merge
    /// automatically merge it, the requesting one included. Called under the save lock, after
    /// ``storeCommitted(_:)``.
    func batchCommitted(_ request: SaveRequest, permanentIDs: IDMapping, preImages: [ManagedObjectID: RowSnapshot]) {
        batchCommitted { StoreChange(request, permanentIDs: permanentIDs, preImages: preImages) }
    }

    /// ``batchCommitted(_:permanentIDs:preImages:)`` for a batch request the store wrote with its
    /// own statements: `change` is made only if a context merges automatically.
    func batchCommitted(_ change: () -> StoreChange) {
        let contexts = automaticallyMergingContexts
        guard !contexts.isEmpty else { return }
        give(change(), to: contexts)
    }

    /// Queues a merge of `change` on each context, or, for commits history could not tell (nil),
    /// a refresh and one refetch per controller.
    private func give(_ change: StoreChange?, to contexts: [ManagedObjectContext]) {
        for context in contexts {
            if let change {
                guard !change.isEmpty else { continue }
                context.storeChangeWasGiven(change)
            } else {
                context.perform { context.storeChangesWereMissed() }
            }
        }
    }
}

extension PersistentStoreCoordinator {
    /// The store generation up to which commits have been queued to the contexts that merge
    /// automatically: a test waits on it to know a commit of another process has arrived.
    package var generationGivenToContexts: Int64 {
        withSaveLock { storeCursor }
    }

    /// How many times the store's change feed has looked at the store: a test checks that an
    /// idle process does not.
    package var storeChangeFeedLooks: Int {
        storeChangeFeed?.looks ?? 0
    }
}
