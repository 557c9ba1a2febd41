import Foundation

/// Whether and to what a context's reads are pinned.
enum QueryGenerationState {
    case unpinned
    /// Pinned to the store's state at the next read (``QueryGenerationToken/current``).
    case current
    case pinned(QueryGeneration)
}

extension ManagedObjectContext {
    /// The generation this context reads, or nil when it reads the store's latest state.
    ///
    /// A context pinned to ``QueryGenerationToken/current`` that has not read yet is pinned by
    /// this call: the token names the store's state now, and another context given it reads the
    /// same state.
    public var queryGenerationToken: QueryGenerationToken? {
        assertOnQueue()
        return currentQueryGeneration().map { QueryGenerationToken(generation: $0) }
    }

    /// Pins the context's reads to a generation of the store, or unpins them.
    ///
    /// - ``QueryGenerationToken/current`` pins them to the store's state at the context's next
    ///   read (a fetch, a count, a fault).
    /// - Another context's ``queryGenerationToken`` pins them to that context's state.
    /// - nil unpins them: each read sees the latest state.
    ///
    /// As in Core Data, a pinned context moves to the latest state (pinned again at its next read)
    /// when it saves, merges another context's save (by hand or through
    /// ``automaticallyMergesChangesFromParent``) or is reset, and stays where it is otherwise.
    /// Objects it already holds keep their values until refreshed. The SQLite store keeps the
    /// pinned state in an open read transaction, the PostgreSQL store in a repeatable-read
    /// transaction on a connection of its own, the in-memory store as a copy of its rows; a
    /// pinned SQLite state keeps the write-ahead log from being checkpointed past it, so unpin
    /// contexts that no longer need it.
    ///
    /// - Throws: ``ObjectGraphError/wrongContext`` for a token of another coordinator's context,
    ///   or for a child context, which reads through its parent (pin the parent instead).
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        assertOnQueue()
        guard let token else {
            queryGenerationState = .unpinned
            return
        }
        guard case .coordinator(let coordinator) = parentStore else {
            throw ObjectGraphError(ObjectGraphError.wrongContext,
                "a child context reads through its parent context, so it cannot be pinned to a query generation; pin the parent")
        }
        guard let generation = token.generation else {
            queryGenerationState = .current
            return
        }
        guard generation.coordinator == ObjectIdentifier(coordinator) else {
            throw ObjectGraphError(ObjectGraphError.wrongContext,
                "the query generation token \(token) belongs to a context of another persistent store coordinator")
        }
        queryGenerationState = .pinned(generation)
    }

    /// The generation reads use now, made if the context waits for its next read to pin.
    private func currentQueryGeneration() -> QueryGeneration? {
        switch queryGenerationState {
        case .unpinned:
            return nil
        case .pinned(let generation):
            return generation
        case .current:
            guard case .coordinator(let coordinator) = parentStore else { return nil }
            let generation = QueryGeneration(coordinator: coordinator)
            // Every store now, so that the token names one moment; a store that fails to pin is
            // tried again at its first read, which reports the error.
            for store in coordinator.persistentStores {
                do {
                    _ = try generation.pin(for: store.backend)
                } catch {
                    Log.context.error("pinning a query generation of \(store): \(error)")
                }
            }
            queryGenerationState = .pinned(generation)
            return generation
        }
    }

    /// Runs reads of the parent store in the context's generation, if it is pinned.
    func readingStore<T>(_ body: () throws -> T) rethrows -> T {
        if case .unpinned = queryGenerationState { return try body() }
        guard let generation = currentQueryGeneration() else { return try body() }
        return try QueryGeneration.$reading.withValue(generation) { try body() }
    }

    /// A pinned context moves to the latest state, pinned again at its next read: after a save,
    /// a merge or a reset.
    func advanceQueryGeneration() {
        if case .pinned = queryGenerationState { queryGenerationState = .current }
    }
}
