import OpenCoreData

// The fetched results controller's differential fuzzer. Seeded random batches of 1–50 changes
// (inserts, deletes, changes to sort keys, section keys, the attribute the predicate reads and
// one nothing reads), made in the controller's context (processed, saved or rolled back) or in a
// background context whose saves merge automatically. After every batch:
// - the classic callbacks, applied to the previous rows with UIKit's batch-update rules, give
//   exactly the rows of a fresh fetch, object for object;
// - so does the snapshot delegate's snapshot, and, unsectioned, the difference delegate's
//   difference applied to the previous IDs;
// - and so does the controller's own contents.
// The checks are in FetchedResultsFuzzRun+Check.swift, the changes in +Changes.swift.

/// One run of the fuzzer over one configuration, on a store of its own.
///
/// A run stays on the thread that made it (it is not Sendable); runs on separate threads share
/// nothing, so they may go on side by side.
public final class FetchedResultsFuzzRun {
    let configuration: FuzzConfiguration
    let seed: UInt64
    let store: FuzzStore
    let view: ManagedObjectContext
    let background: ManagedObjectContext
    /// Another process writing the same store, when the run is a cross-process one.
    let otherProcess: CardWriterProcess?
    /// The random changes, and the random choices of how to make them.
    var changes: CardChanges
    let classic = ClassicRecorder()
    let snapshots = SnapshotRecorder()
    let differences = DifferenceRecorder()
    var controllers: [FetchedResultsController<Card>] = []
    /// The rows after the last checked batch, which the next batch's changes are applied to.
    var rows = SimulatedList<ManagedObjectID>()
    /// Objects inserted in the view context, by temporary ID: a list that holds objects sees
    /// them keep their identity when their IDs become permanent, which the classic delegate
    /// does not report.
    var insertedInView: [ManagedObjectID: Card] = [:]

    /// A run on a fresh store; the same configuration and seed make the same batches.
    ///
    /// - Parameter otherProcess: For an SQLite or PostgreSQL store, the command (an executable and
    ///   its first arguments) that runs ``CardWriter`` in another process: then the background
    ///   batches are that process's saves and batch requests, and now and then it is killed while
    ///   saving.
    /// - Parameter postgresServer: For a PostgreSQL store, the server
    ///   (`postgres://user@host:port/database`) when it is not `OCD_POSTGRES_URL`'s.
    public init(configuration: FuzzConfiguration, seed: UInt64, otherProcess: [String]? = nil, postgresServer: String? = nil) throws {
        self.configuration = configuration
        self.seed = seed
        store = try FuzzStore(configuration.store, postgresServer: postgresServer)
        if let otherProcess, let location = store.storeLocation {
            self.otherProcess = try CardWriterProcess(command: otherProcess, storeLocation: location)
        } else {
            self.otherProcess = nil
        }
        view = store.newContext(named: "view")
        background = store.newContext(named: "background")
        changes = CardChanges(seed: seed)
    }

    /// Makes and checks `batches` batches, stopping at the first mismatch. Call it once: the
    /// first call seeds the store and starts the controllers.
    ///
    /// - Parameter afterEachBatch: Called with the number of the batch just checked, for progress
    ///   reports.
    /// - Throws: When the store fails, which is not a mismatch.
    public func run(batches: Int, afterEachBatch: (Int) -> Void = { _ in }) throws -> FuzzReport {
        var report = FuzzReport()
        try background.performAndWait {
            for _ in 0..<60 { changes.insertCard(in: background) }
            try background.save()
        }
        view.performAndWait {}
        try view.performAndWait { try startControllers() }
        for number in stride(from: 1, through: batches, by: 1) {
            report.batches = number
            try makeBatch(&report)
            // Let the merge queued by a background save run.
            view.performAndWait {}
            if let failure = view.performAndWait({ check(&report) }) {
                report.mismatch = FuzzMismatch(configuration: configuration.name, baseSeed: seed ^ configuration.salt, seed: seed,
                                               batch: number, details: failure + "\noperations: " + changes.operations.joined(separator: "; "))
                return report
            }
            // Now and then the controllers fetch again, so that batches also meet a controller that
            // has read no keys yet.
            if number % Self.refetchInterval == 0 {
                try view.performAndWait { for controller in controllers { try controller.performFetch() } }
            }
            afterEachBatch(number)
        }
        return report
    }

    /// Batches between fresh fetches of the controllers.
    static let refetchInterval = 10

    /// 1–5 changes most of the time, up to 50 otherwise; in the view context (then processed,
    /// saved or rolled back) or in the background context (then saved and merged).
    private func makeBatch(_ report: inout FuzzReport) throws {
        changes.operations = []
        // With another process, most batches are its: what a cross-process run is for.
        let inView = changes.random.next() % 10 < (otherProcess == nil ? 6 : 3)
        let count = changes.random.next() % 10 < 7 ? Int(changes.random.next() % 5) + 1 : Int(changes.random.next() % 50) + 1
        if inView {
            try view.performAndWait {
                var cards = (try? view.fetch(Card.fetchRequest())) ?? []
                for _ in 0..<count {
                    if let inserted = changes.change(in: view, cards: &cards) { insertedInView[inserted.objectID] = inserted }
                }
                switch changes.random.next() % 20 {
                case 0: view.rollback(); changes.operations.append("rollback")
                case 1...5: try view.save(); changes.operations.append("save"); report.savedBatches += 1
                default: changes.operations.append("process")
                }
                view.processPendingChanges()
            }
        } else if let otherProcess {
            try makeBatch(in: otherProcess, count: count, &report)
        } else {
            try background.performAndWait {
                var cards = (try? background.fetch(Card.fetchRequest())) ?? []
                for _ in 0..<count { changes.change(in: background, cards: &cards) }
                try background.save()
            }
            changes.operations.append("background save")
            report.mergedBatches += 1
        }
    }

    // MARK: Controllers

    func makeRequest() throws -> FetchRequest<Card> {
        let request = Card.fetchRequest()
        request.sortDescriptors = configuration.sortKeys.map { FetchSortDescriptor(key: $0.key, ascending: $0.ascending) }
        if let predicate = configuration.predicate { request.predicate = try FetchPredicate(format: predicate) }
        request.fetchBatchSize = 20
        request.fetchOffset = configuration.fetchOffset
        request.fetchLimit = configuration.fetchLimit
        return request
    }

    /// A controller per delegate kind: classic and snapshot, and difference when unsectioned,
    /// where its flat difference is the one section's.
    private func startControllers() throws {
        let delegates: [any FetchedResultsControllerDelegate] = configuration.sectionKeyPath == nil
            ? [classic, snapshots, differences] : [classic, snapshots]
        for delegate in delegates {
            let controller = FetchedResultsController(fetchRequest: try makeRequest(), managedObjectContext: view,
                                                      sectionNameKeyPath: configuration.sectionKeyPath, cacheName: nil)
            controller.delegate = delegate
            if let length = configuration.rowChunkLength { controller.rowChunkLength = length }
            try controller.performFetch()
            controllers.append(controller)
        }
        rows = try freshRows()
        classic.batches = []
    }
}
