import Foundation
public import OpenCoreData

/// One team of the `seed.json` the example ships: the made-up teams a new scoreboard starts with.
public struct TeamSeed: Codable, Sendable, Equatable {
    /// The team's name.
    public var teamName: String
    /// Its qualifying zone.
    public var qualifyingZone: String
    /// The wins it starts with.
    public var wins: Int16

    /// A seed team.
    public init(teamName: String, qualifyingZone: String, wins: Int16 = 0) {
        self.teamName = teamName
        self.qualifyingZone = qualifyingZone
        self.wins = wins
    }

    /// The teams in the bundled `seed.json`.
    ///
    /// - Throws: `WorldCupError.missingResource` when the bundle lacks the file, or the decoding
    ///   error when it is malformed.
    public static func bundled() throws -> [TeamSeed] {
        try JSONDecoder().decode([TeamSeed].self, from: try WorldCupResources.data(named: "seed.json"))
    }

    /// Inserts `seeds` into `context` and saves, when the store has no team yet.
    ///
    /// Call it on the context's queue.
    ///
    /// - Returns: Whether the teams were inserted.
    /// - Throws: What the count or the save throws.
    @discardableResult
    public static func insert(_ seeds: [TeamSeed], into context: ManagedObjectContext) throws -> Bool {
        guard try context.count(for: Team.fetchRequest()) == 0 else { return false }
        for seed in seeds {
            let team = Team(context: context)
            team.teamName = seed.teamName
            team.qualifyingZone = seed.qualifyingZone
            team.wins = seed.wins
        }
        try context.save()
        return true
    }
}
