import ExampleTestSupport
import Foundation
import Testing
import WorldCupApp

/// Two `worldcup` servers on one store (an SQLite file; a PostgreSQL schema, as servers on two
/// machines would share it), one page on each, in a real headless Chromium: what a
/// page does on one server (clicks, a new team) shows on the other page without a reload, each
/// page applying the batches its own server sends, and after each step both pages show what a
/// fresh read of the store shows. Fails, not skips, when the browser cannot run.
@Suite struct TwoServerBrowserTests {
    /// What `Browser/two_servers.py` prints.
    struct Report: Decodable {
        struct Feed: Decodable {
            struct Applied: Decodable {
                let seq: Int
                /// `Date.now()`, in milliseconds.
                let at: Double
            }

            /// The mark the document got when the script opened it; nil if it was replaced.
            let load: String?
            /// When the page applied each message since it was opened.
            let applied: [Applied]
            /// When each click on the page was made, in milliseconds.
            let actions: [Double]
            let seq: Int?
            let batches: Int
            let snapshots: Int
            let resyncs: Int
            let errors: [String]
        }

        struct Checkpoint: Decodable {
            let name: String
            /// The store, read through server A once it held the step's changes, then through
            /// each server once the pages were read.
            let fresh: [Table]
            let pages: [Table]
            let feeds: [Feed]
            /// The teams the step was to click that their page did not show, as `NAME on page A`.
            let unclicked: [String]
        }

        let checkpoints: [Checkpoint]
        let consoleErrors: [String]
    }

    /// A step of the script: actions made one after the other without waiting for their batches.
    struct Step: Encodable {
        struct Action: Encodable {
            /// 0 for page A, 1 for page B.
            let page: Int
            var click: String?
            var add: String?
            var zone: String?

            static func click(_ team: String, on page: Int) -> Action { Action(page: page, click: team) }
            static func add(_ team: String, zone: String, on page: Int) -> Action { Action(page: page, add: team, zone: zone) }
        }

        let name: String
        let actions: [Action]
    }

    static let steps: [Step] = [
        Step(name: "a click on page A", actions: [.click("Tamboro", on: 0)]),
        Step(name: "a team in a new zone added on page A", actions: [.add("Brumeholm", zone: "Caribbean", on: 0)]),
        Step(name: "a click on page B", actions: [.click("Castellune", on: 1)]),
        Step(name: "a click on page B on the team page A added", actions: [.click("Brumeholm", on: 1)]),
        Step(name: "a team added on page B", actions: [.add("Frostmark", zone: "Oceania", on: 1)]),
        // Both servers write the same team at once: neither win may be lost.
        Step(name: "clicks on both pages at once", actions: [
            .click("Zalindi", on: 0), .click("Zalindi", on: 1), .click("Tashkandar", on: 0),
            .click("Zalindi", on: 1), .click("Zalindi", on: 0), .click("Westerholm", on: 1),
        ]),
    ]

    /// How long a page gets to show a step's changes once the store holds them.
    static let settleSeconds = 20.0

    @Test(arguments: ScratchStoreLocation.Kind.allCases)
    func aPageOnEachServerShowsWhatTheOtherDoesWithoutReloading(_ kind: ScratchStoreLocation.Kind) async throws {
        if let missing = BrowserScript.missingPrerequisites() {
            Issue.record(Comment(rawValue: missing))
            return
        }
        let store = try ScratchStoreLocation(kind, fileName: "WorldCup.sqlite")
        let servers = try await ServerProcess.started(2, on: store)

        let output = try await BrowserScript.run([
            "--urls", servers[0].baseURL, servers[1].baseURL,
            "--steps", String(decoding: try JSONEncoder().encode(Self.steps), as: UTF8.self),
            "--settle", "\(Self.settleSeconds)",
        ], script: "two_servers.py")
        let report = try JSONDecoder().decode(Report.self, from: output)
        let checkpoints = report.checkpoints
        #expect(checkpoints.map(\.name) == ["opened"] + Self.steps.map(\.name))
        guard checkpoints.count == Self.steps.count + 1 else { return }

        for checkpoint in checkpoints {
            let store = checkpoint.fresh[0]
            #expect(checkpoint.fresh.allSatisfy { $0 == store }, "\(checkpoint.name): the servers read different tables")
            for (number, page) in checkpoint.pages.enumerated() {
                #expect(page == store, "\(checkpoint.name): page \(Self.pageName(number)) differs from the store: \(page.names) vs \(store.names)")
            }
            // Neither page reloaded or asked for a snapshot: each kept its document and applied batches.
            #expect(checkpoint.feeds.map(\.load) == ["page A, load 1", "page B, load 1"], "\(checkpoint.name)")
            #expect(checkpoint.feeds.map(\.snapshots) == checkpoints[0].feeds.map(\.snapshots), "\(checkpoint.name)")
            #expect(checkpoint.feeds.allSatisfy { $0.resyncs == 0 && $0.errors.isEmpty }, "\(checkpoint.name): \(checkpoint.feeds.map(\.errors))")
            #expect(checkpoint.unclicked.isEmpty, "\(checkpoint.name): no row to click for \(checkpoint.unclicked)")
        }
        for (step, (before, after)) in zip(Self.steps, zip(checkpoints, checkpoints.dropFirst())) {
            // Every click is one win and every new team one team: none lost between the servers.
            let clicks = step.actions.filter { $0.click != nil }.count
            #expect(after.fresh[0].teams.count - before.fresh[0].teams.count == step.actions.count - clicks, "\(step.name)")
            #expect(Self.wins(after.fresh[0]) - Self.wins(before.fresh[0]) == clicks, "\(step.name)")
            for page in 0..<2 {
                let applied = after.feeds[page].batches - before.feeds[page].batches
                // One commit, one batch, on the page that acted and the other alike; several
                // commits may arrive as fewer batches.
                #expect(step.actions.count == 1 ? applied == 1 : applied >= 1, "\(step.name): page \(Self.pageName(page)) applied \(applied) batches")
            }
        }
        let tables = Dictionary(uniqueKeysWithValues: checkpoints.map { ($0.name, $0.fresh[0]) })
        #expect(tables["a click on page A"]?.names["Africa"] == ["Kessaria", "Tamboro", "Nuvanga", "Zalindi"])
        #expect(tables["a team in a new zone added on page A"]?.names["Caribbean"] == ["Brumeholm"])
        #expect(tables["a click on page B"]?.names["Europe"] == ["Aldoria", "Castellune", "Brevania", "Valmorra", "Westerholm"])
        #expect(tables["a click on page B on the team page A added"]?.teams.first { $0.name == "Brumeholm" }?.wins == 1)
        #expect(tables["a team added on page B"]?.names["Oceania"] == ["Corallia", "Frostmark", "Wenderland"])
        #expect(tables["clicks on both pages at once"]?.teams.first { $0.name == "Zalindi" }?.wins == 4)
        #expect(report.consoleErrors.isEmpty, "\(report.consoleErrors)")

        // From a click on one page to the batch showing it on each page.
        for (step, (before, after)) in zip(Self.steps, zip(checkpoints, checkpoints.dropFirst())) where step.actions.count == 1 {
            let actor = step.actions[0].page
            guard let clicked = after.feeds[actor].actions.dropFirst(before.feeds[actor].actions.count).first else { continue }
            let latencies = (0..<2).map { page in
                after.feeds[page].applied.dropFirst(before.feeds[page].applied.count).last.map { $0.at - clicked }
            }
            #expect(latencies.allSatisfy { ($0 ?? .infinity) < Self.settleSeconds * 1000 }, "\(step.name): \(latencies)")
            print("TwoServerBrowserTests (\(kind)): \(step.name): shown on page A after \(Self.milliseconds(latencies[0])), page B after \(Self.milliseconds(latencies[1]))")
        }
    }

    static func pageName(_ number: Int) -> String { number == 0 ? "A" : "B" }

    static func wins(_ table: Table) -> Int { table.teams.reduce(0) { $0 + $1.wins } }

    static func milliseconds(_ value: Double?) -> String { value.map { "\(Int($0)) ms" } ?? "never" }
}
