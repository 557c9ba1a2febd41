import Foundation
import OpenCoreData

/// A small World Cup: teams in zones, with coaches, players and clubs, for fetch tests.
enum WorldCupData {
    struct TeamSeed {
        let name: String
        let zone: String
        let wins: Int16
        let image: String?
        let coach: String?
        let players: [(name: String, number: Int32)]
    }

    static let teams: [TeamSeed] = [
        TeamSeed(name: "Brazil", zone: "CONMEBOL", wins: 5, image: "br.png", coach: "Tite",
                 players: [("Alisson", 1), ("Neymar", 10), ("Vinicius", 20)]),
        TeamSeed(name: "Argentina", zone: "CONMEBOL", wins: 3, image: nil, coach: "Lionel",
                 players: [("Messi", 10), ("Alvarez", 9)]),
        TeamSeed(name: "France", zone: "UEFA", wins: 2, image: "fr.png", coach: "Didier",
                 players: [("Mbappe", 10), ("Giroud", 9), ("Lloris", 1)]),
        TeamSeed(name: "Germany", zone: "UEFA", wins: 4, image: "de.png", coach: nil,
                 players: [("Neuer", 1)]),
        TeamSeed(name: "Spain", zone: "UEFA", wins: 1, image: nil, coach: "Luis", players: []),
        TeamSeed(name: "Japan", zone: "AFC", wins: 0, image: "jp.png", coach: nil,
                 players: [("Kubo", 11), ("Endo", 6)]),
        TeamSeed(name: "Korea", zone: "AFC", wins: 0, image: nil, coach: nil, players: []),
    ]

    /// Saves the teams, their coaches and players, and two clubs, in `context`.
    static func seed(_ context: ManagedObjectContext) throws {
        try context.performAndWait {
            let north = Club(context: context)
            north.name = "North FC"
            let south = Club(context: context)
            south.name = "South FC"
            for seed in teams {
                let team = Team(context: context)
                team.teamName = seed.name
                team.qualifyingZone = seed.zone
                team.wins = seed.wins
                team.imageName = seed.image
                if let name = seed.coach {
                    let coach = Coach(context: context)
                    coach.name = name
                    team.coach = coach
                }
                for (index, (name, number)) in seed.players.enumerated() {
                    let player = Player(context: context)
                    player.name = name
                    player.number = number
                    player.team = team
                    player.clubs = index.isMultiple(of: 2) ? [north] : [north, south]
                }
            }
            try context.save()
        }
    }
}
