import Foundation

/// The commits to one store that this process learns of after they happen, handed to every
/// coordinator of the process that has the store loaded: the path by which batch requests, other
/// coordinators and other processes reach contexts that merge automatically.
///
/// The store's generation (see ``PersistentStoreBackend/generation()``) numbers its commits, one
/// apart, whoever makes them. Each coordinator keeps a cursor: the generation up to which its
/// contexts have been given every commit, their own saves included. When the store's generation
/// moves past a cursor (the store's watch saw another program commit, see
/// ``StoreCommitWatching``; a coordinator of this process committed), the feed reads the store's history for the commits in between, once for the whole
/// process, and gives each coordinator the part it has not had, as one ``StoreChange``. A commit
/// the history does not cover (history off, pruned, SQL written around the library) cannot be
/// told object by object: the coordinator's contexts are told that changes were missed, and
/// their controllers fetch again once.
///
/// Cursors move only under their coordinator's save lock, so a coordinator's contexts are given
/// commits in the order they were made, whether the coordinator made them or not.
final class StoreChangeFeed: @unchecked Sendable {
    /// One feed per store per process, by store identifier (the same file opened twice has one).
    private static let feeds = Locked([String: StoreChangeFeed]())

    let storeIdentifier: String

    private struct Subscriber {
        weak var coordinator: PersistentStoreCoordinator?
        let store: PersistentStore
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var wakeScheduled = false
        /// What wakes the feed when other programs commit, while it has subscribers.
        var watch: (any StoreCommitWatch)?
        /// The generation the last wake read, and whether a second look is due.
        var lastGeneration: Int64 = -1
        var secondLookScheduled = false
        /// How many times the feed has read the store's generation.
        var looks = 0

        /// Drops the subscribers whose coordinator is gone, and returns the live coordinators,
        /// for the caller to release after the lock: a coordinator whose last reference went
        /// in the lock would unsubscribe from its deinit, taking the lock again, and deadlock
        /// (a full test run hung so, in `catchUpEverySubscriber`).
        mutating func pruneSubscribers() -> [PersistentStoreCoordinator] {
            let live = subscribers.compactMap(\.coordinator)
            subscribers.removeAll { $0.coordinator == nil }
            return live
        }
    }

    private let state = Locked(State())
    /// Commits read from history, by generation; nil for one history does not cover. Guarded by
    /// `bufferLock`, which is also held while reading, so that each commit is read once.
    private var buffer: [Int64: StoreChange?] = [:]
    private let bufferLock = NSLock()
    private let queue = DispatchQueue(label: "OpenCoreData.storeChangeFeed")

    private init(storeIdentifier: String) {
        self.storeIdentifier = storeIdentifier
    }

    // MARK: Subscribing

    /// Starts giving `coordinator` the commits to `store` made after now; returns the store's
    /// generation now, the coordinator's first cursor.
    static func subscribe(_ coordinator: PersistentStoreCoordinator, to store: PersistentStore) throws -> (StoreChangeFeed, Int64) {
        let generation = try store.backend.generation()
        let feed = feeds.withLock { feeds in
            if let feed = feeds[store.identifier] { return feed }
            let feed = StoreChangeFeed(storeIdentifier: store.identifier)
            feeds[store.identifier] = feed
            return feed
        }
        let (needsWatch, live) = feed.state.withLock { state in
            let live = state.pruneSubscribers()
            state.subscribers.append(Subscriber(coordinator: coordinator, store: store))
            return (state.watch == nil, live)
        }
        withExtendedLifetime(live) {}
        // Made outside the lock: the watch calls back into the feed, which takes it.
        if needsWatch, let watching = store.backend as? any StoreCommitWatching,
           let watch = watching.watchCommits({ [weak feed] in feed?.wake() }) {
            let extra = feed.state.withLock { state -> (any StoreCommitWatch)? in
                guard state.watch == nil else { return watch }
                state.watch = watch
                return nil
            }
            extra?.stop()
        }
        return (feed, generation)
    }

    /// Stops giving commits to the coordinator of `store`; the last subscriber's leaving stops
    /// the watch.
    func unsubscribe(_ store: PersistentStore) {
        let (stopped, live) = state.withLock { state -> ((any StoreCommitWatch)??, [PersistentStoreCoordinator]) in
            let live = state.pruneSubscribers()
            state.subscribers.removeAll { $0.store === store }
            guard state.subscribers.isEmpty else { return (nil, live) }
            defer { state.watch = nil }
            return (.some(state.watch), live)
        }
        withExtendedLifetime(live) {}
        guard let watch = stopped else { return }
        watch?.stop()
        Self.feeds.withLock { feeds in
            if feeds[storeIdentifier] === self, state.withLock({ $0.subscribers.isEmpty }) { feeds[storeIdentifier] = nil }
        }
    }

    // MARK: Waking

    /// Something may have committed: soon, on the feed's queue, every coordinator is given what
    /// it has not had. Wakes that come while one is pending are one.
    func wake() {
        let schedule = state.withLock { state -> Bool in
            guard !state.wakeScheduled else { return false }
            state.wakeScheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in
            state.withLock { $0.wakeScheduled = false }
            catchUpEverySubscriber()
        }
    }

    /// A coordinator of this process committed: the other coordinators of the process, and the
    /// watchers of other processes, are told.
    func committedHere() {
        state.withLock { $0.watch }?.committedHere()
        // Other coordinators of this process follow the same feed; alone, this one is current.
        if state.withLock({ $0.pruneSubscribers() }).count > 1 { wake() }
    }

    /// A wake that finds nothing new may have come from a commit's last write to the log, which
    /// SQLite publishes a moment later without any write a watch reports: a commit of a program
    /// that does not post the signal. One second look, a little later, finds it (for watches that
    /// may wake early).
    private func lookAgainSoonIfNothingChanged(_ generation: Int64, isSecondLook: Bool) {
        let due = state.withLock { state -> Bool in
            defer { state.lastGeneration = generation }
            state.looks += 1
            guard state.watch?.mayWakeBeforeCommitIsVisible == true else { return false }
            guard !isSecondLook, generation == state.lastGeneration, !state.secondLookScheduled else { return false }
            state.secondLookScheduled = true
            return true
        }
        guard due else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { [self] in
            state.withLock { $0.secondLookScheduled = false }
            catchUpEverySubscriber(isSecondLook: true)
        }
    }

    /// Gives every coordinator what it has not had. A second look schedules no third: an idle
    /// process does nothing until the watch wakes it again.
    private func catchUpEverySubscriber(isSecondLook: Bool = false) {
        let (subscribers, live) = state.withLock { state in
            let live = state.pruneSubscribers()
            return (state.subscribers, live)
        }
        withExtendedLifetime(live) {}
        guard let reader = subscribers.first?.store else { return }
        let generation: Int64
        do {
            generation = try reader.backend.quietGeneration()
        } catch {
            Log.store.error("reading the generation of \(reader) after a commit: \(error)")
            return
        }
        lookAgainSoonIfNothingChanged(generation, isSecondLook: isSecondLook)
        var cursors: [Int64] = []
        for subscriber in subscribers {
            guard let coordinator = subscriber.coordinator else { continue }
            cursors.append(coordinator.withSaveLock {
                coordinator.catchUpWithStore(through: generation)
                return coordinator.storeCursor
            })
        }
        forget(through: cursors.min() ?? generation)
        if let history = reader.backend as? any PersistentHistoryBackend, history.historySettings.isRecording {
            RemoteChangeCenter.shared.storeDidCommit(storeIdentifier,
                                                     historyToken: PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: generation))
        }
    }

    /// How many times the feed has read the store's generation: a test's measure of idleness.
    var looks: Int { state.withLock { $0.looks } }

    // MARK: Reading

    /// What the commits after generation `cursor` up to `target` changed, as one change; nil when
    /// history does not cover every one of them. Reads from `store` the commits no coordinator
    /// of the process has asked for yet, through `history` when given (a read transaction the
    /// caller is in).
    func changes(after cursor: Int64, through target: Int64, readingFrom store: PersistentStore,
                 readingHistory history: ((HistoryStart) throws -> [HistoryTransactionRecord])? = nil) -> StoreChange? {
        guard target > cursor else { return StoreChange() }
        bufferLock.lock()
        defer { bufferLock.unlock() }
        if let first = (cursor + 1...target).first(where: { buffer[$0] == nil }) {
            read(after: first - 1, through: target, from: store, readingHistory: history)
        }
        var change = StoreChange()
        for generation in cursor + 1...target {
            guard case .some(.some(let next)) = buffer[generation] else { return nil }
            change.append(next)
        }
        return change
    }

    /// Fills the buffer with the commits after `start` up to at least `target`, marking those
    /// history does not hold as not covered.
    private func read(after start: Int64, through target: Int64, from store: PersistentStore,
                      readingHistory reader: ((HistoryStart) throws -> [HistoryTransactionRecord])?) {
        defer {
            for generation in start + 1...target where buffer[generation] == nil { buffer[generation] = .some(nil) }
        }
        guard let history = store.backend as? any PersistentHistoryBackend, history.historySettings.isRecording else { return }
        do {
            let token = PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: start)
            let records = try reader?(.after(token)) ?? history.fetchHistory(from: .after(token), includingChanges: true)
            for record in records where buffer[record.number] == nil {
                buffer[record.number] = StoreChange(record)
            }
        } catch {
            // An expired token (pruned, or written with history off) leaves the range uncovered.
            Log.store.debug("reading the history of \(store) after generation \(start): \(error)")
        }
    }

    /// Drops commits every coordinator has had.
    private func forget(through generation: Int64) {
        bufferLock.lock()
        defer { bufferLock.unlock() }
        buffer = buffer.filter { $0.key > generation }
    }
}
