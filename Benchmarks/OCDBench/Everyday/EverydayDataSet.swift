import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData

/// Scenario 11's store: `rows` players in `rows / 100` clubs, built once per size (and reused
/// with `--data`), and the copies the write scenarios change.
struct EverydayDataSet {
    let rows: Int
    let url: URL

    init(rows: Int, directory: URL) {
        self.rows = rows
        url = directory.appendingPathComponent("players-\(rows).sqlite")
    }

    var clubs: Int { max(1, rows / Player.clubSize) }

    /// A container on the data set's store, or on a copy of it at `copy`, as after a relaunch;
    /// `history` false turns persistent history off.
    func openContainer(at copy: URL? = nil, history: Bool = true) throws -> PersistentContainer {
        let container = try PersistentContainer(name: "ocd-bench-everyday", managedObjectClasses: [Club.self, Player.self])
        let description = PersistentStoreDescription(url: copy ?? url)
        if !history { description.isPersistentHistoryTrackingEnabled = false }
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Fills the store unless it already holds exactly `rows` players.
    func build() throws {
        if try existingRows() == rows {
            progress("everyday data set of \(rows) players: reusing \(url.path)")
            return
        }
        DataSet.removeStore(at: url)
        let start = now()
        let container = try openContainer()
        let context = container.newBackgroundContext()
        var generator = SplitMix64(seed: 11)
        try context.performAndWait {
            var made = 0
            while made < rows {
                for _ in 0..<min(200, clubs - made / Player.clubSize) {
                    let club = Club(context: context)
                    let number = made / Player.clubSize
                    club.name = "Club \(number)"
                    club.city = Club.cities[Int(generator.next() % UInt64(Club.cities.count))]
                    for place in 0..<min(Player.clubSize, rows - made) {
                        Self.insertPlayer(number: made, place: place, club: club, into: context, using: &generator)
                        made += 1
                    }
                }
                try context.save()
                context.reset()
                progress("everyday data set of \(rows) players: \(made) inserted")
            }
        }
        progress(String(format: "everyday data set of %d players built in %.1f s", rows, milliseconds(now() - start) / 1000))
    }

    @discardableResult
    static func insertPlayer(number: Int, place: Int, club: Club?, into context: ManagedObjectContext,
                             using generator: inout SplitMix64) -> Player {
        let player = Player(context: context)
        player.name = "Player \(number)"
        player.position = Player.positions[Int(generator.next() % UInt64(Player.positions.count))]
        player.number = Int32(place + 1)
        player.rating = Double(generator.next() % 10_000) / 100
        player.born = Date(timeIntervalSince1970: 600_000_000 + Double(number) * 60)
        player.club = club
        return player
    }

    private func existingRows() throws -> Int {
        guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
        let context = try openContainer().newBackgroundContext()
        return try context.performAndWait { try context.count(for: Player.fetchRequest()) }
    }

    /// Copies the store to `copy` for a scenario that changes rows; with `forGRDB`, the copy loses
    /// the library's triggers, so that GRDB's writes cost what they cost on a table of its own.
    func copy(to copy: URL, forGRDB: Bool) throws {
        DataSet.removeStore(at: copy)
        try FileManager.default.copyItem(at: url, to: copy)
        let log = url.path + "-wal"
        if FileManager.default.fileExists(atPath: log) { try FileManager.default.copyItem(atPath: log, toPath: copy.path + "-wal") }
        guard forGRDB else { return }
        let database = try DatabaseQueue(path: copy.path, configuration: DataSet.rawConfiguration)
        try database.write { db in
            for trigger in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") {
                try db.execute(sql: "DROP TRIGGER \(trigger.quotedDatabaseIdentifier)")
            }
        }
    }

    /// The rating a player needs so that about 300 of the `fraction` of players a first term
    /// selects pass a second term `rating >= threshold` (ratings are uniform in 0 to 100).
    func ratingThreshold(selecting fraction: Double) -> Double {
        max(0, 100 - 100 * 300 / (Double(rows) * fraction))
    }
}
