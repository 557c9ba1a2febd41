import Foundation
import OpenCoreData

/// `--simulate`: a background context of its own that keeps adding wins to random teams, so the
/// page shows live updates nobody clicked. Its saves reach the pages as every save does: merged
/// into the view context, batched by the controller.
public struct WinSimulator: Sendable {
    private let scoreboard: Scoreboard
    private let interval: Duration

    /// A simulator adding one win every `interval`.
    public init(scoreboard: Scoreboard, interval: Duration = .milliseconds(1500)) {
        self.scoreboard = scoreboard
        self.interval = interval
    }

    /// Adds wins until the task is cancelled.
    public func run() async {
        let context = scoreboard.container.newBackgroundContext()
        context.name = "simulator"
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            await context.perform {
                // Start from the store's rows, so a win clicked meanwhile is counted, not overwritten.
                context.reset()
                do {
                    let teams = try context.fetch(Team.fetchRequest())
                    try teams.randomElement()?.addWin()
                    try context.save()
                } catch {
                    // A concurrent save of the same team, or a team at its most wins: skip this one.
                    context.rollback()
                }
            }
        }
    }
}
