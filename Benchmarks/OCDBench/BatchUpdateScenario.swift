import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenario 9: a `BatchUpdateRequest` giving every team of one zone (a twentieth of the rows,
/// 50,000 of 1M) one more win, `wins + 1`, with persistent history on, against the raw floor:
/// the same `UPDATE … WHERE` run through GRDB on a copy of the same data. The floor's copy has
/// the library's commit-counting triggers dropped, so that it is the bare statement; ours also
/// bumps each row's version, records a history change per row and advances the store generation.
struct BatchUpdateScenario {
    let dataSet: DataSet
    let runs: Int
    let scratch: URL

    /// The zone whose teams each run updates.
    static let zone = "Zone 07"

    func run() throws -> Figure {
        let oursURL = try copy(named: "batch-update-ours.sqlite")
        let rawURL = try copy(named: "batch-update-raw.sqlite")
        defer { [oursURL, rawURL].forEach(DataSet.removeStore(at:)) }
        let container = try dataSet.openContainer(at: oursURL)
        let context = container.newBackgroundContext()
        let raw = try DatabaseQueue(path: rawURL.path, configuration: DataSet.rawConfiguration)
        try raw.write { db in
            let triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_ocd\\_generation\\_%' ESCAPE '\\'")
            for trigger in triggers { try db.execute(sql: "DROP TRIGGER \"\(trigger)\"") }
        }
        var ours = Samples(), baseline = Samples()
        var updatedRows = 0
        // One untimed run of each first (file pages, statement caches); then alternately first.
        for run in 0...runs {
            let mine: (time: Double, rows: Int), floor: (time: Double, rows: Int)
            if run.isMultiple(of: 2) {
                mine = try update(in: context)
                floor = try rawUpdate(raw)
            } else {
                floor = try rawUpdate(raw)
                mine = try update(in: context)
            }
            guard mine.rows == floor.rows, mine.rows > 0 else {
                throw BenchError(description: "the batch update changed \(mine.rows) rows, the raw UPDATE \(floor.rows)")
            }
            updatedRows = mine.rows
            if run > 0 {
                ours.add(mine.time)
                baseline.add(floor.time)
            }
        }
        try checkSameRows(oursURL, rawURL)
        return Figure("9. BatchUpdateRequest of \(updatedRows) rows (wins + 1), history on", rows: dataSet.rows, samples: ours,
                      baseline: ("raw UPDATE … WHERE (GRDB)", baseline))
    }

    /// The request every run makes: one more win for every team of ``zone``.
    static func request() throws -> BatchUpdateRequest {
        let request = BatchUpdateRequest(entityName: "Team")
        request.predicate = try FetchPredicate(format: "zone == %@", zone)
        request.propertiesToUpdate = ["wins": try BatchUpdateExpression(format: "wins + 1")]
        request.resultType = .updatedObjectsCountResultType
        return request
    }

    private func update(in context: ManagedObjectContext) throws -> (time: Double, rows: Int) {
        let request = try Self.request()
        return try context.performAndWait {
            let start = now()
            let result = try context.execute(request) as? BatchUpdateResult
            let elapsed = now() - start
            return (milliseconds(elapsed), result?.result as? Int ?? -1)
        }
    }

    private func rawUpdate(_ raw: DatabaseQueue) throws -> (time: Double, rows: Int) {
        let start = now()
        let rows = try raw.write { db in
            try db.execute(sql: #"UPDATE "Team" SET "wins" = "wins" + 1 WHERE "zone" = ?"#, arguments: [Self.zone])
            return db.changesCount
        }
        return (milliseconds(now() - start), rows)
    }

    /// Both copies must hold the same wins after the same updates: a fast wrong answer would
    /// measure nothing.
    private func checkSameRows(_ ours: URL, _ raw: URL) throws {
        let sql = #"SELECT "_pk", "wins" FROM "Team" ORDER BY "_pk""#
        let left = try DatabaseQueue(path: ours.path, configuration: DataSet.rawConfiguration).read { try Row.fetchAll($0, sql: sql) }
        let right = try DatabaseQueue(path: raw.path, configuration: DataSet.rawConfiguration).read { try Row.fetchAll($0, sql: sql) }
        guard left == right else { throw BenchError(description: "the batch update and the raw UPDATE left different rows") }
    }

    private func copy(named name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try dataSet.copy(to: url)
        return url
    }
}
