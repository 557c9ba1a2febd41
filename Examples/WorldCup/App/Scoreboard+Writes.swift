import Foundation
import OpenCoreData

extension Scoreboard {
    /// Adds a win to a team and saves.
    ///
    /// - Parameter teamID: A ``TeamRow/id`` (`p12`) or the team's object ID URI.
    /// - Returns: The team after the win.
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/unknownTeam`` when no team has
    ///   the ID, or what the save throws.
    public func addWin(to teamID: String) async throws -> TeamRow {
        guard let id = objectID(forTeamID: teamID) else { throw Self.unknownTeam(teamID) }
        return try await write { context in
            // A query, not `existingObject(with:)`: an ID from a stale page is no fault to log.
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "SELF == %@", id)
            guard let team = try context.fetch(request).first else { throw Self.unknownTeam(teamID) }
            try team.addWin()
            try context.save()
            return TeamRow(team)
        }
    }

    /// Adds a team and saves; a team of a new zone makes a new section.
    ///
    /// - Returns: The new team.
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/duplicateTeam`` when a team of
    ///   that name (in any case) exists, or what the save throws.
    public func addTeam(_ newTeam: NewTeam) async throws -> TeamRow {
        try await write { context in
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "teamName ==[c] %@", newTeam.name)
            guard try context.count(for: request) == 0 else {
                throw WorldCupError(.duplicateTeam, "a team named \(newTeam.name.debugDescription) already exists")
            }
            let team = Team(context: context)
            team.teamName = newTeam.name
            team.qualifyingZone = newTeam.zone
            try context.save()
            return TeamRow(team)
        }
    }

    /// Runs `body` on a new background context, again on a new one when its save met a
    /// concurrent save of the same team (the simulator's, another request's).
    func write<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        var attempt = 1
        while true {
            let context = container.newBackgroundContext()
            do {
                return try await context.perform { try body(context) }
            } catch ObjectGraphError.mergeConflict where attempt < 5 {
                attempt += 1
            }
        }
    }

    static func unknownTeam(_ teamID: String) -> WorldCupError {
        WorldCupError(.unknownTeam, "no team has the ID \(teamID.debugDescription)")
    }
}

extension Team {
    /// One more win, within what the attribute holds.
    func addWin() throws {
        guard wins < .max else {
            throw WorldCupError(.invalidInput, "\(teamName) already has \(wins) wins, the most a team can have")
        }
        wins += 1
    }
}
