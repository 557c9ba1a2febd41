#if Postgres
import Foundation
import OpenCoreData

/// Differences between version 1 of the league model and a later one.
enum LeagueChange: String, Hashable, Sendable, CaseIterable {
    // Additive: migrate automatically.
    case addCoach, addRating, addStadiumEntity, addWinsIndex, addClubSubentity, requiredCityWithDefault
    case addNameConstraint
    // Renamed: wins becomes victories, whose renaming identifier names wins.
    case renameWinsToVictories
    // Renamed relationships: Player.team becomes club, Team.players squad; the links follow.
    case renameTeamToClub
    // A renamed entity: Player becomes Athlete (its table, key sequence and rivals' join table follow).
    case renamePlayerToAthlete
    // Incompatible: refused.
    case removeWins, winsAsString, removePlayerEntity, addRequiredCountry
}

/// A small model built in code: `Team(name, wins, city, founded, players)`,
/// `Player(name, number, team, rivals)`; `rivals` is a to-many without an inverse, so it has a
/// join table. Each call builds new descriptions (a model freezes once a coordinator uses it).
func leagueModel(_ changes: Set<LeagueChange> = []) -> ManagedObjectModel {
    let team = EntityDescription(name: "Team")
    let player = EntityDescription(name: changes.contains(.renamePlayerToAthlete) ? "Athlete" : "Player")
    if changes.contains(.renamePlayerToAthlete) { player.renamingIdentifier = "Player" }
    let renamesRelationships = changes.contains(.renameTeamToClub)
    let players = RelationshipDescription(name: renamesRelationships ? "squad" : "players", destination: player, toMany: true)
    let playsFor = RelationshipDescription(name: renamesRelationships ? "club" : "team", destination: team)
    if renamesRelationships {
        players.renamingIdentifier = "players"
        playsFor.renamingIdentifier = "team"
    }
    players.inverseRelationship = playsFor
    playsFor.inverseRelationship = players

    var teamProperties: [PropertyDescription] = [
        AttributeDescription(name: "name", type: .string, isOptional: false, isIndexed: true),
        AttributeDescription(name: "founded", type: .date),
        players,
    ]
    if changes.contains(.renameWinsToVictories) {
        let victories = AttributeDescription(name: "victories", type: .integer32, isOptional: false, defaultValue: 0)
        victories.renamingIdentifier = "wins"
        teamProperties.append(victories)
    } else if changes.contains(.winsAsString) {
        teamProperties.append(AttributeDescription(name: "wins", type: .string))
    } else if !changes.contains(.removeWins) {
        teamProperties.append(AttributeDescription(name: "wins", type: .integer32, isOptional: false, defaultValue: 0))
    }
    if changes.contains(.requiredCityWithDefault) {
        teamProperties.append(AttributeDescription(name: "city", type: .string, isOptional: false, defaultValue: "Nowhere"))
    } else {
        teamProperties.append(AttributeDescription(name: "city", type: .string))
    }
    if changes.contains(.addCoach) {
        teamProperties.append(AttributeDescription(name: "coach", type: .string))
    }
    if changes.contains(.addRating) {
        teamProperties.append(AttributeDescription(name: "rating", type: .integer16, isOptional: false, defaultValue: 3))
    }
    if changes.contains(.addRequiredCountry) {
        teamProperties.append(AttributeDescription(name: "country", type: .string, isOptional: false))
    }
    if changes.contains(.addWinsIndex) {
        team.indexes = [FetchIndexDescription(name: "byWins", elements: [
            FetchIndexElementDescription(propertyName: "wins", ascending: false),
            FetchIndexElementDescription(propertyName: "name"),
        ])]
    }
    if changes.contains(.addNameConstraint) {
        team.uniquenessConstraints = [["name"]]
    }
    team.properties = teamProperties
    player.properties = [
        AttributeDescription(name: "name", type: .string, isOptional: false),
        AttributeDescription(name: "number", type: .integer16),
        playsFor,
        RelationshipDescription(name: "rivals", destination: player, toMany: true),
    ]
    var entities = [team]
    if !changes.contains(.removePlayerEntity) {
        entities.append(player)
    } else {
        team.properties.removeAll { $0.name == "players" }
    }
    if changes.contains(.addStadiumEntity) {
        let stadium = EntityDescription(name: "Stadium")
        stadium.properties = [AttributeDescription(name: "capacity", type: .integer64)]
        entities.append(stadium)
    }
    if changes.contains(.addClubSubentity) {
        let club = EntityDescription(name: "Club")
        club.properties = [AttributeDescription(name: "budget", type: .decimal)]
        team.subentities.append(club)
        entities.append(club)
    }
    return ManagedObjectModel(entities: entities)
}
#endif
