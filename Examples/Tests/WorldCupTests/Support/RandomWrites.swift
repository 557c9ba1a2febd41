import FetchedResultsChecking
import Foundation
import OpenCoreData
import WorldCupApp

/// Random writes to a scoreboard, reproducible from a seed: wins and new teams through the
/// scoreboard (as the page makes them), and deletions, renames, zone changes and several changes
/// in one save straight to the store (as other code would), so that batches hold every kind of
/// change: section inserts and deletes, row inserts, deletes, moves and updates.
struct RandomWrites {
    private var random: SplitMix64
    private var serial = 0
    let fixture: TestScoreboard

    init(_ fixture: TestScoreboard, seed: UInt64) {
        self.fixture = fixture
        random = SplitMix64(seed: seed)
    }

    private static let syllables = ["al", "bo", "cy", "da", "el", "fo", "gu", "ha", "ir", "jo", "ka", "lu", "mo", "ne"]
    private static let zones = ["Africa", "Asia", "Europe", "Oceania", "Polar", "Islands", "Highlands"]

    private mutating func name() -> String {
        serial += 1
        let parts = (0..<Int.random(in: 2...3, using: &random)).map { _ in Self.syllables.randomElement(using: &random) ?? "x" }
        return parts.joined().capitalized + " \(serial)"
    }

    private mutating func zone() -> String { Self.zones.randomElement(using: &random) ?? "Europe" }

    /// Makes one write, which changes what the scoreboard shows (so it makes exactly one batch),
    /// and says what it did.
    mutating func step() async throws -> String {
        let table = try await fixture.freshFetch()
        let teams = table.teams
        let pick = teams.isEmpty ? nil : teams[Int.random(in: 0..<teams.count, using: &random)]
        let roll = teams.count < 4 ? 99 : Int.random(in: 0..<100, using: &random)
        let scoreboard = fixture.scoreboard
        switch (roll, pick) {
        case (0..<35, let team?):
            _ = try await scoreboard.addWin(to: team.id)
            return "win \(team.name)"
        case (35..<50, let team?):
            let id = try objectID(team)
            try await fixture.save { context in context.delete(try context.existingObject(with: id)) }
            return "delete \(team.name)"
        case (50..<60, let team?):
            let (id, newName) = (try objectID(team), name())
            try await fixture.save { context in (try context.existingObject(with: id) as? Team)?.teamName = newName }
            return "rename \(team.name) to \(newName)"
        case (60..<72, let team?):
            let (id, newZone) = (try objectID(team), zone())
            guard newZone != table.sections.first(where: { $0.teams.contains(team) })?.name else { return try await step() }
            try await fixture.save { context in (try context.existingObject(with: id) as? Team)?.qualifyingZone = newZone }
            return "move \(team.name) to \(newZone)"
        case (72..<85, _):
            let ids = try teams.shuffled(using: &random).prefix(3).map(objectID)
            let (newName, newZone, wins) = (name(), zone(), Int16.random(in: 0...6, using: &random))
            try await fixture.save { context in
                for (index, id) in ids.enumerated() {
                    guard let team = try context.existingObject(with: id) as? Team else { continue }
                    if index == 0 { context.delete(team) } else { team.wins = (team.wins + 1) % 7 }
                }
                let team = Team(context: context)
                team.teamName = newName
                team.qualifyingZone = newZone
                team.wins = wins
            }
            return "one save: delete, two wins, add \(newName) in \(newZone)"
        default:
            let (newName, newZone) = (name(), zone())
            _ = try await scoreboard.addTeam(try NewTeam(name: newName, zone: newZone))
            return "add \(newName) in \(newZone)"
        }
    }

    private func objectID(_ team: TeamRow) throws -> ManagedObjectID {
        guard let id = fixture.scoreboard.objectID(forTeamID: team.id) else { throw WorldCupError(.unknownTeam, team.id) }
        return id
    }
}
