import Foundation
import OpenCoreData

extension Scoreboard {
    /// Adds a win to a team and saves.
    ///
    /// - Parameter teamID: A ``TeamRow/id`` (`p12`) or the team's object ID URI.
    /// - Returns: The team after the win.
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/unknownTeam`` when no team has
    ///   the ID, of kind ``WorldCupError/Kind/busy`` when concurrent saves of the same team kept
    ///   winning, or what the save throws.
    public func addWin(to teamID: String) async throws -> TeamRow {
        guard let id = objectID(forTeamID: teamID) else { throw Self.unknownTeam(teamID) }
        return try await write("a win for \(teamID)") { context in
            // A query, not `existingObject(with:)`: an ID from a stale page is no fault to log.
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "SELF == %@", id)
            guard let team = try context.fetch(request).first else { throw Self.unknownTeam(teamID) }
            try team.addWin()
            try self.save(context)
            return TeamRow(team)
        }
    }

    /// Adds a team and saves; a team of a new zone makes a new section.
    ///
    /// Names are unique without regard to case, on every server using the store: the check and
    /// the save are one step under the store's write lock, so of several requests adding the
    /// same name at once, in this process or others, exactly one adds it.
    ///
    /// - Returns: The new team.
    /// - Throws: ``WorldCupError`` of kind ``WorldCupError/Kind/duplicateTeam`` when a team of
    ///   that name (in any case) exists, or what the save throws.
    public func addTeam(_ newTeam: NewTeam) async throws -> TeamRow {
        try await writeLock.withLock {
            try await write("adding \(newTeam.name.debugDescription)") { context in
                let request = Team.fetchRequest()
                request.predicate = try FetchPredicate(format: "teamName ==[c] %@", newTeam.name)
                guard try context.count(for: request) == 0 else {
                    throw WorldCupError(.duplicateTeam, "a team named \(newTeam.name.debugDescription) already exists")
                }
                let team = Team(context: context)
                team.teamName = newTeam.name
                team.qualifyingZone = newTeam.zone
                try self.save(context)
                return TeamRow(team)
            }
        }
    }

    /// Runs `body` on a new background context, again on a new one when its save met a
    /// concurrent save of the same team (the simulator's, another request's, another
    /// server's), up to ``writeAttempts`` times.
    ///
    /// - Parameter action: What the write does, for the log.
    /// - Throws: What `body` throws; when every attempt met a concurrent save, a
    ///   ``WorldCupError`` of kind ``WorldCupError/Kind/busy`` saying so, which is logged.
    func write<T: Sendable>(_ action: String, _ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        for attempt in 1...Self.writeAttempts {
            let context = container.newBackgroundContext()
            do {
                return try await context.perform { try body(context) }
            } catch ObjectGraphError.mergeConflict where attempt < Self.writeAttempts {
                continue
            } catch ObjectGraphError.mergeConflict {
                break
            }
        }
        let error = WorldCupError(.busy, "the team changed under \(Self.writeAttempts) attempts in a row (other saves of it came first); try again")
        logger.warning("\(action) failed: \(error.reason)", metadata: ["worldcup.action": "\(action)"])
        throw error
    }

    /// Saves a write's context: the one place writes save, so that a test can come between.
    private func save(_ context: ManagedObjectContext) throws {
        try willSave.withLock { $0 }?(context)
        try context.save()
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
