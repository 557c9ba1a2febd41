// `swift run --package-path Examples -c release worldcup-load`: open pages on a running World
// Cup server, click at full speed, and report clicks per second and how long each click took
// to reach every page.
import ArgumentParser
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import WorldCupApp

@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worldcup-load",
        abstract: "Open pages on a World Cup server, click at full speed, and report clicks/s and click-to-page latency.",
        discussion: """
            Start the server first, on a store of its own (release build), for example:
              swift run --package-path Examples -c release worldcup --store /tmp/load.sqlite --reset --port 8080
            Every page reads the whole feed; clickers each click their own team, waiting for each \
            click's acknowledgement before the next. A click's latency on a page is the time from \
            sending it to that page receiving the batch that shows it. Stalled pages upgrade and \
            then never read, as a frozen browser tab would.
            """
    )

    @Option(help: "The server's address.") var host = "127.0.0.1"
    @Option(help: "The server's port.") var port = 8080
    @Option(help: "Pages that read every message.") var pages = 500
    @Option(help: "Clients clicking, each on a team of its own (at most the number of teams).") var clickers = 4
    @Option(help: "Pages that never read.") var stalled = 0
    @Option(help: "How long to click, in seconds.") var seconds = 20.0
    @Option(help: "Write the figures as JSON to this file.") var json: String?

    func validate() throws {
        guard pages >= 1, clickers >= 1, stalled >= 0, seconds > 0 else {
            throw ValidationError("--pages and --clickers need at least 1, --stalled at least 0, --seconds more than 0")
        }
    }

    func run() async throws {
        let url = "ws://\(host):\(port)\(WorldCupSocket.path)"
        let (pages, clickers, stalled, seconds) = (pages, clickers, stalled, seconds)
        let logger = {
            var logger = Logger(label: "worldcup-load")
            logger.logLevel = .warning
            return logger
        }()
        let stalledPages = try (0..<stalled).map { _ in try StalledPage(host: host, port: port) }

        print("opening \(pages) pages on \(url)…")
        let clock = LoadClock()
        let feeds = (0..<pages).map { _ in PageFeed() }
        let result = try await withThrowingTaskGroup(of: Void.self) { group in
            for feed in feeds {
                group.addTask { try await feed.follow(url: url, clock: clock, logger: logger) }
            }
            for feed in feeds { await feed.waitUntilOpen() }
            let teams = try await PageFeed.teams(url: url, logger: logger)
            guard teams.count >= clickers else { throw ValidationError("the scoreboard has \(teams.count) teams; ask for as many clickers at most") }
            print("\(pages) pages open (\(stalled) stalled); \(clickers) clickers for \(seconds) s…")
            let start = clock.now
            let clicks = try await withThrowingTaskGroup(of: [Click].self) { clickGroup in
                for team in teams.prefix(clickers) {
                    clickGroup.addTask {
                        try await Clicker(team: team, clock: clock).run(url: url, until: start + seconds, logger: logger)
                    }
                }
                return try await clickGroup.reduce(into: [Click]()) { $0 += $1 }
            }
            let elapsed = clock.now - start
            // Let the last batches arrive, then close the pages.
            try await Task.sleep(for: .seconds(2))
            for feed in feeds { feed.stop() }
            try await group.waitForAll()
            return LoadReport(pages: pages, stalled: stalled, clickers: clickers, seconds: elapsed, clicks: clicks,
                              arrivals: feeds.map { $0.arrivals })
        }
        withExtendedLifetime(stalledPages) {}
        print(result.summary)
        if let json {
            try result.figures.write(to: URL(fileURLWithPath: json))
        }
    }
}
