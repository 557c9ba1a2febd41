// `swift run worldcup`: the World Cup scoreboard as a live web page (see WorldCupOptions.usage).
import Foundation
import OpenCoreData
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
        } catch let error as WorldCupOptions.UsageError {
            FileHandle.standardError.write(Data("worldcup: \(error)\n\n\(WorldCupOptions.usage)\n".utf8))
            exit(2)
        } catch PersistentStoreError.incompatibleModel {
            // A store made by an earlier version of the example.
            FileHandle.standardError.write(Data("worldcup: the store was made by another model; run with --reset to start over\n".utf8))
            exit(1)
        } catch {
            FileHandle.standardError.write(Data("worldcup: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: WorldCupOptions) async throws {
        if options.reset {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: options.storeURL.path + suffix) }
        }
        let scoreboard = try await Scoreboard.open(at: options.storeURL)
        if options.check {
            try await SelfCheck.run(scoreboard, host: options.host)
            return
        }
        let host = options.host
        let app = try WorldCupServer.application(scoreboard: scoreboard, host: host, port: options.port) { port in
            // Unbuffered, so that a script waiting for this line sees it at once.
            FileHandle.standardOutput.write(Data("World Cup scoreboard on http://\(host):\(port)/ (store: \(options.storeURL.path)); Ctrl-C stops it\n".utf8))
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
