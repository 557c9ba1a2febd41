// `swift run --package-path Examples worldcup`: the World Cup scoreboard as a live web page
// (`--help` lists the options, from WorldCupOptions).
import ArgumentParser
import ExampleSupport
import Foundation
import WorldCupApp

@main
struct WorldCupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worldcup",
        abstract: "The World Cup scoreboard: a live page whose fetched results controller updates every open window over a WebSocket.",
        discussion: """
            Several servers may share one store: start each with the same --store and its own --port, and \
            every page, on any of them, shows the clicks and teams of all of them live. An SQLite file is shared \
            by the servers of one machine; a postgres:// store (a build with --traits Postgres) by servers anywhere.
            """
    )

    @OptionGroup var options: WorldCupOptions

    func run() async throws {
        let options = options
        if options.reset { try Scoreboard.reset(options.store) }
        let scoreboard = try await Scoreboard.open(options.store)
        if options.check {
            try await SelfCheck.run(scoreboard, host: options.host, limits: options.limits)
            return
        }
        let host = options.host
        let app = try WorldCupServer.application(scoreboard: scoreboard, host: host, port: options.port, limits: options.limits) { port in
            // Unbuffered, so that a script waiting for this line sees it at once.
            FileHandle.standardOutput.write(Data("World Cup scoreboard on http://\(host):\(port)/ (store: \(options.store.displayPath)); Ctrl-C stops it\n".utf8))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if options.simulate {
                group.addTask { await WinSimulator(scoreboard: scoreboard).run() }
            }
            group.addTask {
                try await app.runService()
                scoreboard.closeSubscriptions()
            }
            // The server returns on SIGINT or SIGTERM; then the simulator stops too.
            try await group.next()
            group.cancelAll()
        }
    }
}
