import Foundation

/// The on-disk section cache (`cacheName`): written in Core Data's "full persistent tracking"
/// mode (a cache name and a delegate) after each fetch, save and merge that leaves the context
/// showing exactly what the store holds; read by ``performFetch()``, which then skips the fetch.
///
/// A cache is valid for the request, model, store and store generation it was written with:
/// any commit to the store afterwards, by any context or process, through the library or not,
/// makes it stale. It is written only at the generation the controller's rows are known to match
/// (``StoreGenerationTrail``), so a commit the controller never heard of is never covered by a
/// later one. A stale or damaged cache is deleted and the controller fetches (Core Data's "FATAL
/// ERROR … illegally mutated" cases are not errors here).
extension AnyFetchedResultsController {
    /// The generation a fetch about to run will include at least, when the cache may follow it.
    /// A context with saves announced but not merged fetches what it has seen, not the store.
    func generationBeforeFetching() -> Int64? {
        guard cacheName != nil, let state = try? source.storeGeneration(), state.isSettled else { return nil }
        return state.generation
    }

    /// A commit the context made or merged moves the generation the rows match.
    func followCommit(of event: ContextEvent) {
        let commit: CommitGenerations?
        switch event {
        case .didSave(let save): commit = save.saved.storeGenerations
        case .didMerge(let merge): commit = merge.storeGenerations
        case .objectsDidChange, .willSave, .objectIDsDidChange, .storeChangesMissed: commit = nil
        }
        guard let commit else { return }
        generationTrail.follow(commitFrom: commit.before, to: commit.after)
    }

    /// The index a valid cache holds, or nil (after deleting an invalid cache).
    func restoreFromCache(named name: String, configuration: FetchedResultsConfiguration, coding: RowKeyCoding) throws -> ResultIndex? {
        guard source.readsStore, !configuration.includesPendingChanges || !managedObjectContext.hasChanges else { return nil }
        let writer = SectionCaches.writer()
        guard let read = writer.read(cacheName: name) else { return nil }
        func discard(_ reason: String) -> ResultIndex? {
            Log.cache.notice("section cache '\(name)' \(reason); fetching and rebuilding it")
            writer.remove(cacheName: name)
            return nil
        }
        let contents: SectionCacheContents
        switch read {
        case .success(let value): contents = value
        case .failure(let error): return discard("is damaged (\(error))")
        }
        guard let (generation, settled) = try source.storeGeneration() else { return nil }
        guard contents.configuration == configuration.fingerprint else { return discard("was written for another request or model") }
        guard contents.storeIdentifier == coding.storeIdentifier else { return discard("was written for another store") }
        guard contents.storeGeneration == generation, settled else { return discard("predates the last commit to the store") }
        guard contents.rowKeys.allSatisfy({ coding.isValid($0) }),
              configuration.section != nil || (contents.sections.count == 1 && contents.sections[0].name == "") else {
            return discard("does not fit the model")
        }
        var sections: [ResultIndex.Section] = []
        var start = 0
        for section in contents.sections {
            sections.append(.init(name: section.name, indexTitle: resolvedIndexTitle(forSectionName: section.name),
                                  rows: RowList(contents.rowKeys[start..<(start + section.count)])))
            start += section.count
        }
        generationTrail = StoreGenerationTrail(generation: generation)
        return ResultIndex(sections: sections)
    }

    /// Writes the cache, off the context's queue, when the controller tracks changes under a cache
    /// name and its results are exactly the store's at its current generation.
    func writeCacheIfTracking() {
        // A live window is fetched, never restored (its cache would hold the window only).
        guard let cacheName, delegateForm != .none, let engine, engine.window == nil, staleness == nil, !managedObjectContext.hasChanges,
              let (generation, settled) = try? source.storeGeneration(), settled, generationTrail.generation == generation else { return }
        let index = engine.index
        let configuration = engine.configuration.fingerprint
        let store = engine.coding.storeIdentifier
        SectionCaches.writer().write(cacheName: cacheName) {
            SectionCacheContents(configuration: configuration, storeIdentifier: store, storeGeneration: generation,
                                 sections: index.sections.map { .init(name: $0.name, indexTitle: $0.indexTitle, count: $0.rows.count) },
                                 rowKeys: index.allRowKeys)
        }
    }
}
