import FetchedResultsChecking
import Foundation
import OpenCoreData

/// Scenarios 3 and 4: `changed` objects get a new sort key and are saved; the time runs from
/// `save()` to the return of the delegate's last callback, and to the async sequence handing the
/// batch over. Measured twice: saved by the controller's own context, and saved by a background
/// context and merged.
struct ChangeScenarios {
    let dataSet: any TeamStore
    let runs: Int
    let bulkRuns: Int

    struct Result {
        var local: Samples
        var merged: Samples
        var stream: Samples
    }

    func run(changed: Int) throws -> Result {
        let container = try dataSet.makeContainer()
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let background = container.newBackgroundContext()
        let probe = DeliveryProbe()
        let controller = FetchedResultsController(fetchRequest: Team.scoreboardRequest(), managedObjectContext: context,
                                                  sectionNameKeyPath: "zone", cacheName: nil)
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            controller.delegate = probe
            try controller.performFetch()
            let request = FetchRequest<ManagedObjectID>(entityName: "Team")
            request.resultType = .managedObjectIDResultType
            return try context.fetch(request)
        }
        let stream = StreamProbe(controller.changes)
        var generator = SplitMix64(seed: UInt64(changed))
        let runs = changed == 1 ? self.runs : bulkRuns
        var result = Result(local: Samples(), merged: Samples(), stream: Samples())
        // One untimed run of each kind first: statement caches and file pages.
        for run in 0...runs {
            let chosen = Self.choose(changed, from: ids, using: &generator)
            let start = try Self.changeAndSave(chosen, in: context, using: &generator)
            guard probe.waitForDelivery(), let streamed = stream.waitForDelivery() else {
                throw BenchError(description: "no change batch after a local save")
            }
            if run > 0 {
                result.local.add(milliseconds(probe.deliveredAt - start))
                result.stream.add(milliseconds(streamed - start))
            }
        }
        for run in 0...runs {
            let chosen = Self.choose(changed, from: ids, using: &generator)
            let start = try Self.changeAndSave(chosen, in: background, using: &generator)
            guard probe.waitForDelivery(), stream.waitForDelivery() != nil else {
                throw BenchError(description: "no change batch after a merged save")
            }
            if run > 0 { result.merged.add(milliseconds(probe.deliveredAt - start)) }
            background.performAndWait { background.reset() }
        }
        try context.performAndWait { try FetchScenarios.check(controller, rows: dataSet.rows) }
        try OrderCheck.verify(controller, in: context)
        return result
    }

    static func choose(_ count: Int, from ids: [ManagedObjectID], using generator: inout SplitMix64) -> [ManagedObjectID] {
        var chosen = Set<ManagedObjectID>()
        while chosen.count < count { chosen.insert(ids[Int(generator.next() % UInt64(ids.count))]) }
        return Array(chosen)
    }

    /// Loads the objects (untimed, as a list shows objects it has already read), gives each a new
    /// number of wins, and saves; returns when `save()` was called.
    static func changeAndSave(_ ids: [ManagedObjectID], in context: ManagedObjectContext,
                                      using generator: inout SplitMix64) throws -> UInt64 {
        let steps = ids.map { _ in Int32(1 + generator.next() % 999) }
        return try context.performAndWait { () throws -> UInt64 in
            let teams = try ids.map { id -> Team in
                guard let team = try context.existingObject(with: id) as? Team else {
                    throw BenchError(description: "\(id) is not a team")
                }
                return team
            }
            for (team, step) in zip(teams, steps) { team.wins = (team.wins + step) % 1000 }
            let start = now()
            try context.save()
            return start
        }
    }
}
