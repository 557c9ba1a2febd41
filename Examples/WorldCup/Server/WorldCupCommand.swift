// `swift run worldcup`: the World Cup scoreboard as a live web page (see WorldCupOptions.usage).
import ExampleSupport
import Foundation
import WorldCupApp

@main
struct WorldCupCommand {
    static func main() async {
        do {
            let options = try WorldCupOptions(arguments: Array(CommandLine.arguments.dropFirst()))
            if options.help {
                print(WorldCupOptions.usage)
                return
            }
            try await run(options)
        } catch let error as ToolError {
            // As every example tool reports: the message, the usage after a usage error, the status.
            report("worldcup: error: \(error.message)" + (error.kind == .usage ? "\n\n" + WorldCupOptions.usage : ""))
            exit(error.exitCode)
        } catch {
            report("worldcup: error: \(error)")
            exit(ToolError.failureExitCode)
        }
    }

    static func run(_ options: WorldCupOptions) async throws {
        if options.reset, case .file(let url) = options.store {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let scoreboard = try await Scoreboard.open(options.store)
        if options.check {
            try await SelfCheck.run(scoreboard, host: options.host)
            return
        }
        let host = options.host
        let app = try WorldCupServer.application(scoreboard: scoreboard, host: host, port: options.port) { port in
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

    private static func report(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
