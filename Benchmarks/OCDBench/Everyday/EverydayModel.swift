import Foundation
import GRDB
import OpenCoreData

// The model of scenario 11 (everyday object work): players in clubs of 100, and the GRDB records
// of the same tables that the baselines decode with `init(row:)`.

/// A club: a city, and the to-many relationship scenario 11f traverses.
final class Club: ManagedObject {
    @Managed var name: String
    @Managed var city: String
    @Managed(inverse: "club", deleteRule: .nullify) var players: Set<Player>

    static let cities = (1...20).map { "City \($0)" }
}

/// A player: five attributes of the common types, and a to-one relationship to its club.
final class Player: ManagedObject {
    @Managed var name: String
    @Managed var position: String
    @Managed var number: Int32 = 0
    @Managed var rating: Double = 0
    @Managed var born: Date
    @Managed(inverse: "players") var club: Club?

    // The predicate fetches' index, as an app would declare it for them.
    override class var fetchIndexes: [FetchIndexDescription] {
        [FetchIndexDescription(name: "byPositionRating", elements: [
            FetchIndexElementDescription(propertyName: "position"),
            FetchIndexElementDescription(propertyName: "rating"),
        ]),
         FetchIndexDescription(name: "byRating", elements: [FetchIndexElementDescription(propertyName: "rating")])]
    }

    static let positions = ["Goalkeeper", "Defender", "Midfielder", "Forward"]

    /// Every player's number of a club is its place in it, 1 to 100.
    static let clubSize = 100
}

/// A player as a GRDB user would declare it: a final class, decoded by column name.
final class PlayerRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "Player"
    var id: Int64?
    // The library's bookkeeping columns, which a row inserted beside it must fill.
    var entity: Int64 = 0
    var version: Int64 = 1
    var name: String
    var position: String
    var number: Int32
    var rating: Double
    var born: Date
    var club: Int64?
    var clubEntity: Int64?

    init(name: String, position: String, number: Int32, rating: Double, born: Date, club: Int64?) {
        self.name = name
        self.position = position
        self.number = number
        self.rating = rating
        self.born = born
        self.club = club
    }

    init(row: Row) {
        id = row["_pk"]
        entity = row["_entity"]
        version = row["_version"]
        name = row["name"]
        position = row["position"]
        number = row["number"]
        rating = row["rating"]
        // The store keeps dates as seconds since 2001, as Core Data does.
        born = Date(timeIntervalSinceReferenceDate: row["born"])
        club = row["club"]
        clubEntity = row["_club_entity"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["_pk"] = id
        container["_entity"] = entity
        container["_version"] = version
        container["name"] = name
        container["position"] = position
        container["number"] = number
        container["rating"] = rating
        container["born"] = born.timeIntervalSinceReferenceDate
        container["club"] = club
        container["_club_entity"] = clubEntity
    }

    func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A club as a GRDB user would declare it.
final class ClubRecord: FetchableRecord {
    var id: Int64
    var name: String
    var city: String

    init(row: Row) {
        id = row["_pk"]
        name = row["name"]
        city = row["city"]
    }
}

/// The baselines' SQL: what the library runs for the same request, written as a GRDB user would.
enum EverydaySQL {
    static let playerColumns =
        #""_pk", "_entity", "_version", "name", "position", "number", "rating", "born", "club", "_club_entity""#
    static let allPlayers = #"SELECT \#(playerColumns) FROM "Player""#
    static let playersByPositionAndRating =
        #"SELECT \#(playerColumns) FROM "Player" WHERE "position" = ? AND "rating" >= ? ORDER BY "name""#
    static let playersByCityAndRating = #"""
        SELECT "Player"."_pk", "Player"."_entity", "Player"."_version", "Player"."name", "position", "number", "rating", "born",
               "club", "_club_entity" FROM "Player"
        JOIN "Club" ON "Club"."_pk" = "Player"."club" WHERE "Club"."city" = ? AND "rating" >= ? ORDER BY "Player"."name"
        """#
    static let playerByKey = #"SELECT \#(playerColumns) FROM "Player" WHERE "_pk" = ?"#
    static let clubByKey = #"SELECT "_pk", "_entity", "_version", "name", "city" FROM "Club" WHERE "_pk" = ?"#
    static let playersOfClub = #"SELECT \#(playerColumns) FROM "Player" WHERE "club" = ?"#
    static let countByPositionAndRating = #"SELECT COUNT(*) FROM "Player" WHERE "position" = ? AND "rating" >= ?"#
    static let namesAndRatings = #"SELECT "name", "rating" FROM "Player""#
}
