import Foundation
import Hummingbird
import Testing
import WorldCupApp

/// The page in a real headless Chromium: two windows follow every change, the same as a fresh
/// fetch, applying each batch in place with an animation and never reloading; names are text,
/// never markup. Fails, not skips, when the browser cannot run.
///
/// `OCD_UPDATE_SCREENSHOT=1 swift test --package-path Examples --filter BrowserTests` rewrites
/// the README's `Docs/worldcup.png`; otherwise the screenshot goes to a temporary file.
@Suite struct BrowserTests {
    /// What the script prints.
    struct Report: Decodable {
        struct Checkpoint: Decodable {
            struct Fresh: Decodable {
                let seq: Int
                let table: Table
            }

            /// A CSS animation or transition that started on a row or a section.
            struct Motion: Decodable, Hashable, CustomStringConvertible {
                /// `team` or `zone`.
                let on: String
                /// The team's or the zone's name.
                let label: String
                /// `animation` or `transition`.
                let kind: String
                /// The animation's name, or the property the transition animates.
                let name: String

                var description: String { "\(kind) \(name) on \(on) \(label)" }
            }

            let name: String
            let fresh: Fresh
            let pages: [Table]
            /// The mark each page's document got when the script opened it; nil if it was replaced.
            let loads: [String?]
            /// The batches each page has applied since it was loaded.
            let batches: [Int]
            /// What started moving on each page since the checkpoint before.
            let motion: [[Motion]]
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
        let afterClick = try #require(report.checkpoints.dropFirst().first)
        #expect(afterClick.fresh.table.names["Africa"] == ["Kessaria", "Tamboro", "Nuvanga", "Zalindi"])
        let afterAdd = try #require(report.checkpoints.dropFirst(2).first)
        #expect(afterAdd.fresh.table.sections.map(\.name).contains("Caribbean"))
        #expect(afterAdd.fresh.table.indexTitles == ["A", "C", "E", "N", "O", "S"])
        #expect(report.message == "Added Brumeholm.")

        // Each change shows as it is applied: the team that won flashes and slides up, the new
        // zone and its team come in with their entrance animation, on both pages.
        typealias Motion = Report.Checkpoint.Motion
        let clickMotion: Set = [Motion(on: "team", label: "Tamboro", kind: "animation", name: "flash"),
                                Motion(on: "team", label: "Tamboro", kind: "transition", name: "transform")]
        let addMotion: Set = [Motion(on: "zone", label: "Caribbean", kind: "animation", name: "enter"),
                              Motion(on: "team", label: "Brumeholm", kind: "animation", name: "enter"),
                              Motion(on: "team", label: "Brumeholm", kind: "animation", name: "flash")]
        for (checkpoint, expected) in [(afterClick, clickMotion), (afterAdd, addMotion)] {
            for (number, motion) in checkpoint.motion.enumerated() {
                #expect(expected.isSubset(of: motion), "\(checkpoint.name): page \(number + 1) showed \(motion)")
            }
        }

        // Neither page reloaded to show a change: each kept the document it was opened with
        // (page 1 until the test reloaded it), and applied in place, one by one, exactly the
        // batches the server sent after it opened.
        let reload = try #require(report.checkpoints.firstIndex { $0.name == "reloaded page 1" })
        #expect(report.checkpoints.map(\.loads) == report.checkpoints.indices.map {
            ["page 1, load \($0 < reload ? 1 : 2)", "page 2, load 1"]
        })
        let sequenceNumbers = report.checkpoints.map(\.fresh.seq)
        #expect(zip(sequenceNumbers, sequenceNumbers.dropFirst()).map { $1 - $0 } == [1, 1, 1, 0, 40, 0, 0])
        for checkpoint in report.checkpoints {
            for (number, load) in checkpoint.loads.enumerated() {
                guard let load, let opened = report.checkpoints.first(where: { $0.loads[number] == load }) else { continue }
                #expect(checkpoint.batches[number] - opened.batches[number] == checkpoint.fresh.seq - opened.fresh.seq,
                        "\(checkpoint.name): batches page \(number + 1) applied since \(opened.name)")
            }
        }

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
        // Examples/Tests/WorldCupTests/BrowserTests.swift, four folders below the repository's root.
        let root = (0..<4).reduce(URL(fileURLWithPath: #filePath)) { url, _ in url.deletingLastPathComponent() }
        return root.appendingPathComponent("Docs/worldcup.png")
    }
}
