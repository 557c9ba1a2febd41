import Foundation
import Hummingbird
import Testing
import WorldCupApp

/// The page in a real headless Chromium: two windows follow every change, the same as a fresh
/// fetch; names are text, never markup. Fails, not skips, when the browser cannot run.
///
/// `OCD_UPDATE_SCREENSHOT=1 swift test --filter BrowserTests` rewrites the README's
/// `Docs/worldcup.png`; otherwise the screenshot goes to a temporary file.
@Suite struct BrowserTests {
    /// What the script prints.
    struct Report: Decodable {
        struct Checkpoint: Decodable {
            struct Fresh: Decodable {
                let seq: Int
                let table: Table
            }

            let name: String
            let fresh: Fresh
            let pages: [Table]
        }

        struct Markup: Decodable {
            let alerts: [Bool]
            let injectedElements: [Int]
            let alertsAfterReload: Bool
        }

        struct Replay: Decodable {
            let table: Table?
            let failure: String?
            let refusal: String?
        }

        struct Feed: Decodable {
            let seq: Int?
            let batches: Int
            let resyncs: Int
            let errors: [String]
        }

        let checkpoints: [Checkpoint]
        let message: String
        let markup: Markup
        let replay: Replay
        let feeds: [Feed]
        let consoleErrors: [String]
    }

    static let markupName = "<script>alert(1)</script>"

    @Test func twoPagesFollowEveryChangeAsAFreshFetchSeesIt() async throws {
        if let missing = BrowserScript.missingPrerequisites() {
            Issue.record(Comment(rawValue: missing))
            return
        }
        let fixture = try await TestScoreboard()
        let recorded = try await RecordedBatches.record(seed: 11, steps: 80)
        let fixtureURL = fixture.directory.appendingPathComponent("batches.json")
        try JSONEncoder().encode(recorded).write(to: fixtureURL)
        let screenshot = Self.screenshotURL(in: fixture.directory)

        // The test's own fetch, at the moment the script asks, with the number of the last batch.
        let router = try WorldCupRoutes.router(for: fixture.scoreboard)
        router.get("/_test/fresh") { _, _ in
            struct Fresh: Encodable {
                let seq: Int
                let table: Table
            }
            let (seq, _) = await fixture.scoreboard.snapshot()
            let fresh = Fresh(seq: seq, table: try await fixture.freshFetch())
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(fresh))))
        }
        // Random writes of every kind, made by the test while the pages watch.
        let writer = RandomWriter(RandomWrites(fixture, seed: 5))
        router.post("/_test/random-writes") { request, _ in
            try await writer.write(count: request.uri.queryParameters.get("count", as: Int.self) ?? 1)
            return Response(status: .noContent)
        }
        let output = try await WorldCupServer.withServer(scoreboard: fixture.scoreboard, router: router) { port in
            try await BrowserScript.run([
                "--url", "http://127.0.0.1:\(port)",
                "--click", "Tamboro",
                "--team", "Brumeholm", "--zone", "Caribbean",
                "--markup", Self.markupName, "--markup-zone", "Europe",
                "--fixture", fixtureURL.path,
                "--screenshot", screenshot.path,
            ])
        }
        let report = try JSONDecoder().decode(Report.self, from: output)

        #expect(report.checkpoints.map(\.name) == ["opened", "clicked a team on page 1", "added a team in a new zone on page 2",
                                                   "added a team named as markup on page 2", "reloaded page 1",
                                                   "40 random writes", "a gap in the batches on page 2",
                                                   "a batch that does not fit on page 2"])
        for checkpoint in report.checkpoints {
            for (number, page) in checkpoint.pages.enumerated() {
                #expect(page == checkpoint.fresh.table, "\(checkpoint.name): page \(number + 1) differs from a fresh fetch")
            }
        }
        let afterClick = try #require(report.checkpoints.dropFirst().first).fresh.table
        #expect(afterClick.names["Africa"] == ["Kessaria", "Tamboro", "Nuvanga", "Zalindi"])
        let afterAdd = try #require(report.checkpoints.dropFirst(2).first).fresh.table
        #expect(afterAdd.sections.map(\.name).contains("Caribbean"))
        #expect(afterAdd.indexTitles == ["A", "C", "E", "N", "O", "S"])
        #expect(report.message == "Added Brumeholm.")

        let afterMarkup = try #require(report.checkpoints.dropFirst(3).first)
        #expect(afterMarkup.pages.allSatisfy { $0.teams.contains { $0.name == Self.markupName } })
        #expect(report.markup.alerts == [false, false] && !report.markup.alertsAfterReload, "a team's name ran as script")
        #expect(report.markup.injectedElements == [0, 0], "a team's name became markup")

        #expect(report.replay.failure == nil)
        #expect(report.replay.table == recorded.final, "table.js's applyBatch over \(recorded.batches.count) recorded batches")
        #expect(report.replay.refusal?.hasPrefix("cannot delete p0 at [0,0]") == true, "\(report.replay.refusal ?? "no refusal")")
        // Page 2 asked for a snapshot twice, for the gap and the bad batch; otherwise every batch fit.
        #expect(report.feeds.map(\.resyncs) == [0, 2], "\(report.feeds.map(\.errors))")
        #expect(report.feeds.first?.errors == [])
        #expect(report.feeds.last?.errors.count == 1 && report.feeds.last?.errors.first?.contains("cannot delete") == true,
                "\(report.feeds.last?.errors ?? [])")
        #expect(report.consoleErrors.isEmpty, "\(report.consoleErrors)")
        let png = try #require(FileManager.default.contents(atPath: screenshot.path))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    actor RandomWriter {
        private var writes: RandomWrites

        init(_ writes: RandomWrites) { self.writes = writes }

        func write(count: Int) async throws {
            // A copy, as a mutating call cannot span a suspension on actor state; the script
            // makes one request at a time.
            var writes = self.writes
            for _ in 0..<count { _ = try await writes.step() }
            self.writes = writes
        }
    }

    /// `Docs/worldcup.png` when asked to update it, a temporary file otherwise.
    static func screenshotURL(in directory: URL) -> URL {
        guard ProcessInfo.processInfo.environment["OCD_UPDATE_SCREENSHOT"] == "1" else {
            return directory.appendingPathComponent("worldcup.png")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Docs/worldcup.png")
    }
}
