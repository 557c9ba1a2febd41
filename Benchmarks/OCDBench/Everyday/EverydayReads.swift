import Foundation
import GRDB
import OpenCoreData

/// Scenario 11's reads, each beside GRDB's record API running the same SQL in the same process:
/// fetching every object, in batches, with predicates, by ID, through a to-many relationship, a
/// count and a dictionary fetch. Each of the library's runs uses a fresh context, as each of
/// GRDB's makes fresh records.
struct EverydayReads {
    let dataSet: EverydayDataSet
    let container: PersistentContainer
    let pool: DatabasePool
    let runs: Int

    /// Calls per timed run of the scenarios that take well under a millisecond.
    static let repetitions = 200

    init(dataSet: EverydayDataSet, runs: Int) throws {
        self.dataSet = dataSet
        self.runs = runs
        container = try dataSet.openContainer()
        pool = try DatabasePool(path: dataSet.url.path, configuration: DataSet.rawConfiguration)
    }

    func run() throws -> [Figure] {
        let rows = dataSet.rows
        // Reading every row runs fewer times on the larger sets.
        let bulk = EverydayComparison(rows: rows, runs: rows >= 1_000_000 ? 3 : rows >= 100_000 ? max(3, runs / 4) : runs)
        let small = EverydayComparison(rows: rows, runs: runs)
        var figures: [Figure] = []
        progress("\(rows) players: fetching every object")
        figures.append(try bulk.figure("11a. fetch every object, read each attribute", target: "≤ 2× baseline",
                                       ours: { try fetchAll(batchSize: 0) }, grdb: { try grdbFetchAll() }))
        figures.append(try bulk.figure("11b. … with fetchBatchSize 50, every row in order", target: "≤ 2× baseline",
                                       ours: { try fetchAll(batchSize: 50) }, grdb: { try grdbCursor() }))
        progress("\(rows) players: predicates, by ID, to-many, count")
        let byPosition = dataSet.ratingThreshold(selecting: 1 / Double(Player.positions.count))
        figures.append(try small.figure("11c. predicate fetch of ~300 objects, sorted", target: "≤ 1.5× baseline",
                                        ours: { try fetch(format: "position == %@ AND rating >= %@", "Forward", byPosition) },
                                        grdb: { try grdbFetch(EverydaySQL.playersByPositionAndRating, "Forward", byPosition) }))
        let byCity = dataSet.ratingThreshold(selecting: 1 / Double(Club.cities.count))
        figures.append(try small.figure("11d. … through a to-one key path (club.city)", target: "≤ 1.5× baseline",
                                        ours: { try fetch(format: "club.city == %@ AND rating >= %@", "City 7", byCity) },
                                        grdb: { try grdbFetch(EverydaySQL.playersByCityAndRating, "City 7", byCity) }))
        let players = try identifiers(of: "Player")
        figures.append(try small.figure("11e. one object by ID in a fresh context, read one attribute", target: "≤ 1.5× baseline",
                                        ours: { try objectByID(players) }, grdb: { try grdbObjectByKey(players) }))
        let clubs = try identifiers(of: "Club")
        figures.append(try small.figure("11f. a to-many of 100 objects: fault the set, read each object", target: "≤ 1.5× baseline",
                                        ours: { try traverseClub(clubs) }, grdb: { try grdbTraverseClub(clubs) }))
        figures.append(try small.figure("11j. count with a predicate (~300 rows)", target: "≤ 1.5× baseline",
                                        ours: { try count("Forward", byPosition) }, grdb: { try grdbCount("Forward", byPosition) }))
        progress("\(rows) players: dictionaries")
        figures.append(try bulk.figure("11k. dictionary fetch of two attributes, every row", target: "≤ 1.5× baseline",
                                       ours: { try dictionaries() }, grdb: { try grdbRows() }))
        return figures
    }

    // MARK: Every object

    private func fetchAll(batchSize: Int) throws -> Double {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> Double in
            let request = Player.fetchRequest()
            request.fetchBatchSize = batchSize
            let start = now()
            let players = try context.fetch(request)
            var sum = 0
            for player in players {
                sum &+= playerChecksum(name: player.name, position: player.position, number: player.number,
                                       rating: player.rating, born: player.born)
            }
            let elapsed = milliseconds(now() - start)
            try EverydayComparison.check(players.count, dataSet.rows, "players fetched")
            return elapsed
        }
    }

    private func grdbFetchAll() throws -> Double {
        let start = now()
        let records = try pool.read { db in try PlayerRecord.fetchAll(db, sql: EverydaySQL.allPlayers) }
        var sum = 0
        for record in records { sum &+= record.checksum }
        let elapsed = milliseconds(now() - start)
        try EverydayComparison.check(records.count, dataSet.rows, "records fetched")
        return elapsed
    }

    /// GRDB's way through every row without holding them all: a cursor.
    private func grdbCursor() throws -> Double {
        let start = now()
        let (count, _) = try pool.read { db -> (Int, Int) in
            let cursor = try PlayerRecord.fetchCursor(db, sql: EverydaySQL.allPlayers)
            var count = 0, sum = 0
            while let record = try cursor.next() {
                count += 1
                sum &+= record.checksum
            }
            return (count, sum)
        }
        let elapsed = milliseconds(now() - start)
        try EverydayComparison.check(count, dataSet.rows, "records read")
        return elapsed
    }

    // MARK: Predicates

    private func fetch(format: String, _ text: String, _ rating: Double) throws -> Double {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> Double in
            let start = now()
            let request = Player.fetchRequest()
            request.predicate = try FetchPredicate(format: format, text, rating)
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let players = try context.fetch(request)
            var sum = 0
            for player in players {
                sum &+= playerChecksum(name: player.name, position: player.position, number: player.number,
                                       rating: player.rating, born: player.born)
            }
            let elapsed = milliseconds(now() - start)
            try EverydayComparison.check(players.isEmpty, false, "players matching \(format)")
            return elapsed
        }
    }

    private func grdbFetch(_ sql: String, _ text: String, _ rating: Double) throws -> Double {
        let start = now()
        let records = try pool.read { db in try PlayerRecord.fetchAll(db, sql: sql, arguments: [text, rating]) }
        var sum = 0
        for record in records { sum &+= record.checksum }
        let elapsed = milliseconds(now() - start)
        try EverydayComparison.check(records.isEmpty, false, "records matching")
        return elapsed
    }

    private func count(_ position: String, _ rating: Double) throws -> Double {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> Double in
            try EverydayComparison.perCall(Self.repetitions) { _ in
                let request = Player.fetchRequest()
                request.predicate = try FetchPredicate(format: "position == %@ AND rating >= %@", position, rating)
                guard try context.count(for: request) > 0 else { throw BenchError(description: "the count found no player") }
            }
        }
    }

    private func grdbCount(_ position: String, _ rating: Double) throws -> Double {
        try EverydayComparison.perCall(Self.repetitions) { _ in
            let count = try pool.read { db in try Int.fetchOne(db, sql: EverydaySQL.countByPositionAndRating, arguments: [position, rating]) }
            guard (count ?? 0) > 0 else { throw BenchError(description: "GRDB's count found no player") }
        }
    }

    // MARK: By ID and through relationships

    /// The IDs of an entity's objects, with their primary keys, in key order.
    private func identifiers(of entity: String) throws -> [(id: ManagedObjectID, key: Int64)] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObjectID>(entityName: entity)
            request.resultType = .managedObjectIDResultType
            return try context.fetch(request).map { id in
                guard let key = Int64(id.uriRepresentation().lastPathComponent.dropFirst()) else {
                    throw BenchError(description: "no key in \(id.uriRepresentation())")
                }
                return (id, key)
            }
        }
    }

    /// The `repetition`th of a spread of objects: every lookup misses SQLite's page cache alike.
    private func pick<T>(_ all: [T], _ repetition: Int) -> T {
        all[(repetition &* 7919) % all.count]
    }

    private func objectByID(_ players: [(id: ManagedObjectID, key: Int64)]) throws -> Double {
        try EverydayComparison.perCall(Self.repetitions) { repetition in
            let context = container.newBackgroundContext()
            let id = pick(players, repetition).id
            let name = try context.performAndWait { () throws -> String in
                guard let player = context.object(with: id) as? Player else { throw BenchError(description: "\(id) is no player") }
                return player.name
            }
            try EverydayComparison.check(name.isEmpty, false, "a player's name")
        }
    }

    private func grdbObjectByKey(_ players: [(id: ManagedObjectID, key: Int64)]) throws -> Double {
        try EverydayComparison.perCall(Self.repetitions) { repetition in
            let key = pick(players, repetition).key
            let record = try pool.read { db in try PlayerRecord.fetchOne(db, sql: EverydaySQL.playerByKey, arguments: [key]) }
            try EverydayComparison.check(record?.name.isEmpty, false, "a record's name")
        }
    }

    private func traverseClub(_ clubs: [(id: ManagedObjectID, key: Int64)]) throws -> Double {
        try EverydayComparison.perCall(Self.repetitions / 10) { repetition in
            let context = container.newBackgroundContext()
            let id = pick(clubs, repetition).id
            let count = try context.performAndWait { () throws -> Int in
                guard let club = context.object(with: id) as? Club else { throw BenchError(description: "\(id) is no club") }
                var sum = club.name.utf8.count
                for player in club.players {
                    sum &+= playerChecksum(name: player.name, position: player.position, number: player.number,
                                           rating: player.rating, born: player.born)
                }
                return club.players.count + (sum == 0 ? 1 : 0)
            }
            try EverydayComparison.check(count, Player.clubSize, "players of a club")
        }
    }

    private func grdbTraverseClub(_ clubs: [(id: ManagedObjectID, key: Int64)]) throws -> Double {
        try EverydayComparison.perCall(Self.repetitions / 10) { repetition in
            let key = pick(clubs, repetition).key
            let count = try pool.read { db -> Int in
                guard let club = try ClubRecord.fetchOne(db, sql: EverydaySQL.clubByKey, arguments: [key]) else { return 0 }
                var sum = club.name.utf8.count
                let players = try PlayerRecord.fetchAll(db, sql: EverydaySQL.playersOfClub, arguments: [club.id])
                for player in players { sum &+= player.checksum }
                return players.count + (sum == 0 ? 1 : 0)
            }
            try EverydayComparison.check(count, Player.clubSize, "records of a club")
        }
    }

    // MARK: Dictionaries

    private func dictionaries() throws -> Double {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> Double in
            let start = now()
            let request = FetchRequest<NSDictionary>(entityName: "Player")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "rating"]
            let results = try context.fetch(request)
            var sum = 0
            for result in results {
                sum &+= (result["name"] as? String)?.utf8.count ?? 0
                sum &+= Int((result["rating"] as? Double ?? 0) * 100)
            }
            let elapsed = milliseconds(now() - start)
            try EverydayComparison.check(results.count, dataSet.rows, "dictionaries fetched")
            return elapsed
        }
    }

    private func grdbRows() throws -> Double {
        let start = now()
        let rows = try pool.read { db in try Row.fetchAll(db, sql: EverydaySQL.namesAndRatings) }
        var sum = 0
        for row in rows {
            sum &+= (row["name"] as String).utf8.count
            sum &+= Int((row["rating"] as Double) * 100)
        }
        let elapsed = milliseconds(now() - start)
        try EverydayComparison.check(rows.count, dataSet.rows, "rows fetched")
        return elapsed
    }
}

extension PlayerRecord {
    var checksum: Int { playerChecksum(name: name, position: position, number: number, rating: rating, born: born) }
}
