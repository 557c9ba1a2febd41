import Foundation
import OpenCoreData
import WorldCupApp

/// A scoreboard on a store in a directory of its own, removed when the fixture goes.
final class TestScoreboard: Sendable {
    let scoreboard: Scoreboard
    let directory: URL

    /// A scoreboard seeded with `seeds`, by default the bundled `seed.json`.
    init(seeds: [TeamSeed]? = nil) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("WorldCupTests-\(UUID().uuidString)", isDirectory: true)
        scoreboard = try await Scoreboard.open(.file(directory.appendingPathComponent("WorldCup.sqlite")), seeds: seeds)
    }

    deinit {
        scoreboard.closeSubscriptions()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The test's own fetch, without a controller: every team, sorted and grouped by zone as
    /// the scoreboard should show them.
    func freshFetch() async throws -> Table {
        let context = scoreboard.container.newBackgroundContext()
        return try await context.perform {
            let teams = try context.fetch(Team.scoreboardRequest())
            var sections: [TableSection] = []
            for team in teams {
                let row = TeamRow(id: team.objectID.uriRepresentation().lastPathComponent, name: team.teamName, wins: Int(team.wins))
                if sections.last?.name == team.qualifyingZone {
                    sections[sections.count - 1].teams.append(row)
                } else {
                    sections.append(TableSection(name: team.qualifyingZone, title: team.qualifyingZone.first.map { String($0).uppercased() },
                                                 teams: [row]))
                }
            }
            var titles: [String] = []
            for title in sections.compactMap(\.title) where titles.last != title { titles.append(title) }
            return Table(sections: sections, indexTitles: titles)
        }
    }

    /// Runs `body` on a new background context and saves: a write that bypasses the server,
    /// as another part of the app would make.
    func save(_ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) async throws {
        let context = scoreboard.container.newBackgroundContext()
        try await context.perform {
            try body(context)
            try context.save()
        }
    }
}

extension Table {
    /// The team names by zone, for short failure messages.
    var names: [String: [String]] {
        Dictionary(sections.map { ($0.name, $0.teams.map(\.name)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every team, in order.
    var teams: [TeamRow] { sections.flatMap(\.teams) }
}
