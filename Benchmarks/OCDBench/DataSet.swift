import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// A store of `rows` teams on disk, built once per size (and reused with `--data`).
struct DataSet {
    let rows: Int
    let url: URL

    init(rows: Int, directory: URL) {
        self.rows = rows
        url = directory.appendingPathComponent("teams-\(rows).sqlite")
    }

    /// A container on the data set's store (or on a copy of it at `copy`): each call is a fresh
    /// start, as after a relaunch. `history` turns persistent history on or off; nil keeps the
    /// default (on).
    func openContainer(at copy: URL? = nil, history: Bool? = nil) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "ocd-bench", managedObjectClasses: [Team.self])
        let description = PersistentStoreDescription(url: copy ?? url)
        if let history { description.isPersistentHistoryTrackingEnabled = history }
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Copies the data set's store to `copy` (replacing what was there), so that a scenario can
    /// change its rows and leave the data set as built.
    func copy(to copy: URL) throws {
        Self.removeStore(at: copy)
        try FileManager.default.copyItem(at: url, to: copy)
        // A log the data set's last connection left unmerged holds rows too.
        let log = url.path + "-wal"
        if FileManager.default.fileExists(atPath: log) { try FileManager.default.copyItem(atPath: log, toPath: copy.path + "-wal") }
    }

    /// Removes a store's file and its log and shared-memory files, if there are any.
    static func removeStore(at url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// Fills the store unless it already holds exactly `rows` teams; a store holding anything
    /// else is rebuilt.
    func build() throws {
        if try existingRows() == rows {
            progress("data set of \(rows) rows: reusing \(url.path)")
            return
        }
        Self.removeStore(at: url)
        let start = now()
        try Self.fill(try openContainer(), rows: rows)
        progress(String(format: "data set of %d rows built in %.1f s", rows, milliseconds(now() - start) / 1000))
    }

    /// Inserts the data set's `rows` teams into the empty store of `container`, 20,000 to a save,
    /// the same teams whatever the store.
    static func fill(_ container: PersistentContainer, rows: Int) throws {
        let context = container.newBackgroundContext()
        var generator = SplitMix64(seed: 2026)
        try context.performAndWait {
            var made = 0
            while made < rows {
                for _ in 0..<min(20_000, rows - made) {
                    insertTeam(number: made, into: context, using: &generator)
                    made += 1
                }
                try context.save()
                context.reset()
                progress("data set of \(rows) rows: \(made) inserted")
            }
        }
    }

    private func existingRows() throws -> Int {
        guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
        let container = try openContainer()
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: Team.fetchRequest()) }
    }

    @discardableResult
    static func insertTeam(number: Int, into context: ManagedObjectContext, using generator: inout SplitMix64) -> Team {
        let team = Team(context: context)
        team.name = "Team " + String(number)
        team.zone = Team.zones[Int(generator.next() % UInt64(Team.zones.count))]
        team.wins = Int32(generator.next() % 1000)
        team.created = Date(timeIntervalSince1970: 1_700_000_000 + Double(number))
        return team
    }
}

/// Progress goes to standard error, so that the table on standard output stays clean.
func progress(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension DataSet {
    /// GRDB connections of the baselines wait for locks, as the library's own connections do:
    /// the store's connections from the previous scenario may still be checkpointing.
    static var rawConfiguration: GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(30)
        return configuration
    }
}
