import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenario 12, a live window: a controller showing the 50 best-rated players that match a
/// filter, while single rows are updated, each in a save of its own by another context. What is
/// timed per update is what keeps the list current after the commit: for the library, the merge
/// of the save into the controller's context with the controller's batch; for the baseline, what
/// a GRDB observation does, the window's query again (the same SQL, `LIMIT 50`) and
/// `difference(from:)` against the previous rows. The saves themselves are not timed: both sides
/// follow the same commits.
///
/// Three filters: half the players, 1 in 100, and 1 in 10,000, whose matches all sort deep in the
/// rating index. Updates give a random player a random rating; a second set updates only rows the
/// window shows, so that rows leave it all the time and the rows after it are used up.
struct WindowScenario {
    let dataSet: EverydayDataSet
    let runs: Int
    let scratch: URL

    static let windowSize = 50
    static let updatesPerRun = 100

    struct Filter {
        let label: String
        let format: String
        let sql: String
    }

    var filters: [Filter] {
        // `born` grows with the player's number: the first 1/100 of the players, of whom 1 in 100
        // wears number 1.
        let early = Date(timeIntervalSince1970: 600_000_000 + Double(dataSet.rows / 100) * 60)
        return [
            Filter(label: "half the rows match", format: "number <= 50", sql: #""number" <= 50"#),
            Filter(label: "1 row in 100 matches", format: "number == 1", sql: #""number" = 1"#),
            Filter(label: "1 row in 10,000 matches, deep in the index",
                   format: "number == 1 AND born < CAST(\(early.timeIntervalSinceReferenceDate), 'NSDate')",
                   sql: #""number" = 1 AND "born" < \#(early.timeIntervalSinceReferenceDate)"#),
        ]
    }

    func run() throws -> [Figure] {
        let copy = scratch.appendingPathComponent("window-\(dataSet.rows).sqlite")
        try dataSet.copy(to: copy, forGRDB: false)
        defer { DataSet.removeStore(at: copy) }
        let container = try dataSet.openContainer(at: copy)
        let pool = try DatabasePool(path: copy.path, configuration: DataSet.rawConfiguration)
        let reader = container.newBackgroundContext()
        let ids = try reader.performAndWait { () throws -> [ManagedObjectID] in
            let request = FetchRequest<ManagedObjectID>(entityName: "Player")
            request.resultType = .managedObjectIDResultType
            return try reader.fetch(request)
        }
        var figures: [Figure] = []
        for (number, filter) in filters.enumerated() {
            let letter = ["a", "b", "c"][number]
            progress("\(dataSet.rows) players: a window of \(Self.windowSize), \(filter.label)")
            let side = try Side(container: container, pool: pool, filter: filter, ids: ids)
            figures.append(try side.figure("12\(letter). window of \(Self.windowSize), \(filter.label): any row updated",
                                           rows: dataSet.rows, runs: runs, shownOnly: false))
            figures.append(try side.figure("12\(letter). window of \(Self.windowSize), \(filter.label): a shown row updated",
                                           rows: dataSet.rows, runs: runs, shownOnly: true))
        }
        return figures
    }

    /// One filter's controller, writer and baseline query.
    private final class Side {
        let view: ManagedObjectContext
        let writer: ManagedObjectContext
        let controller: FetchedResultsController<Player>
        let pool: DatabasePool
        let windowSQL: String
        let ids: [ManagedObjectID]
        let batches = BatchCounter()
        var generator = SplitMix64(seed: 12)
        var previous: [Int64] = []
        private let saved = SavedNotification()
        private var observer: (any NSObjectProtocol)?

        init(container: PersistentContainer, pool: DatabasePool, filter: Filter, ids: [ManagedObjectID]) throws {
            view = container.newBackgroundContext()
            writer = container.newBackgroundContext()
            self.pool = pool
            self.ids = ids
            windowSQL = #"SELECT "_pk", "rating" FROM "Player" WHERE \#(filter.sql) ORDER BY "rating" DESC, "_pk" LIMIT \#(WindowScenario.windowSize)"#
            let request = Player.fetchRequest()
            request.predicate = try FetchPredicate(format: filter.format)
            request.sortDescriptors = [FetchSortDescriptor(key: "rating", ascending: false)]
            request.fetchLimit = WindowScenario.windowSize
            controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
            let (controller, batches) = (controller, batches)
            try view.performAndWait {
                controller.delegate = batches
                try controller.performFetch()
            }
            previous = try pool.read { db in try Int64.fetchAll(db, sql: windowSQL) }
            try check()
            observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: writer,
                                                              queue: nil) { [saved] note in saved.notification = note }
        }

        deinit {
            if let observer { NotificationCenter.default.removeObserver(observer) }
        }

        /// Per update, the milliseconds of the merge and batch (ours) beside the query and diff
        /// (GRDB's), `runs` runs of ``updatesPerRun`` updates each. A window whose query takes
        /// seconds (the deep filter at 1M rows) gets fewer: 5 updates a run, 3 runs.
        func figure(_ scenario: String, rows: Int, runs: Int, shownOnly: Bool) throws -> Figure {
            let start = now()
            _ = try pool.read { db in try Int64.fetchAll(db, sql: windowSQL) }
            let slow = milliseconds(now() - start) > 50
            let updates = slow ? 5 : WindowScenario.updatesPerRun
            let comparison = EverydayComparison(rows: rows, runs: slow ? min(runs, 3) : runs)
            progress("  \(scenario)\(slow ? " (the query is slow: \(updates) updates a run)" : "")")
            let figure = try comparison.figure(scenario, target: "≥ 20,000 updates/s (≤ 0.05 ms)",
                                               baseline: "the window's query again and difference(from:) (GRDB)", ours: {
                var total: UInt64 = 0
                for _ in 0..<updates {
                    let note = try update(shownOnly: shownOnly)
                    let start = now()
                    view.performAndWait { view.mergeChanges(fromContextDidSave: note) }
                    total += now() - start
                }
                return milliseconds(total) / Double(updates)
            }, grdb: {
                var total: UInt64 = 0
                for _ in 0..<updates {
                    let note = try update(shownOnly: shownOnly)
                    let start = now()
                    let rows = try pool.read { db in try Int64.fetchAll(db, sql: windowSQL) }
                    let difference = rows.difference(from: previous)
                    total += now() - start
                    previous = rows
                    withExtendedLifetime(difference) {}
                    // The library's side follows every commit too, untimed here.
                    view.performAndWait { view.mergeChanges(fromContextDidSave: note) }
                }
                return milliseconds(total) / Double(updates)
            })
            try check()
            return figure
        }

        /// Saves one player's new rating in the writer; returns the save's notification.
        private func update(shownOnly: Bool) throws -> Notification {
            let id: ManagedObjectID
            if shownOnly {
                let shown = view.performAndWait { controller.fetchedObjects?.map(\.objectID) ?? [] }
                id = shown.isEmpty ? ids[0] : shown[Int(generator.next() % UInt64(shown.count))]
            } else {
                id = ids[Int(generator.next() % UInt64(ids.count))]
            }
            let rating = Double(generator.next() % 10_000) / 100
            saved.notification = nil
            try writer.performAndWait {
                guard let player = try writer.existingObject(with: id) as? Player else { return }
                player.rating = rating
                try writer.save()
                writer.refresh(player, mergeChanges: false)
            }
            guard let note = saved.notification else { throw BenchError(description: "the writer's save sent no notification") }
            return note
        }

        /// Throws unless the controller shows what the window's query returns.
        private func check() throws {
            // The store's row keys, as the query returns them: `p` and the key end an ID's URI.
            let shown = view.performAndWait {
                controller.fetchedObjects?.map { Int64($0.objectID.uriRepresentation().lastPathComponent.dropFirst()) ?? -1 } ?? []
            }
            let fetched = try pool.read { db in try Int64.fetchAll(db, sql: windowSQL) }
            guard shown == fetched else {
                throw BenchError(description: "the live window shows \(shown.count) rows other than the query's \(fetched.count): \(zip(shown, fetched).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(4))")
            }
        }
    }

    /// The writer's last save notification: posted inside `save()` on the writer's queue, read
    /// after `performAndWait` returns.
    private final class SavedNotification: @unchecked Sendable {
        var notification: Notification?
    }

    /// Counts the controller's batches, so that the benchmark can tell it delivers.
    private final class BatchCounter: FetchedResultsControllerDelegate, @unchecked Sendable {
        var batches = 0
        func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { batches += 1 }
    }
}
