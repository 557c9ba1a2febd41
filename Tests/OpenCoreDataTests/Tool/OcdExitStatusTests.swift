import Foundation
import OpenCoreData
import Testing

/// `ocd`'s exit statuses: 64 and a message naming the problem for a wrong command line, 1 and a
/// clear error for a store that cannot be opened; nothing printed on the standard output.
@Suite struct OcdExitStatusTests {
    /// A command line, with `STORE` standing for a real store of the fixtures' model.
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// Words the error message must contain.
        let mentions: [String]

        init(_ arguments: String..., mentions: String...) {
            self.arguments = arguments
            self.mentions = mentions
        }

        var testDescription: String { "ocd " + arguments.joined(separator: " ") }
    }

    static let badCommandLines: [Case] = [
        Case(mentions: "missing command"),
        Case("frobnicate", "STORE", mentions: "unknown command", "frobnicate"),
        Case("info", mentions: "missing STORE"),
        Case("info", "STORE", "STORE", mentions: "unexpected argument"),
        Case("info", "STORE", "--entity", "Team", mentions: "--entity"),
        Case("info", "STORE", "--json=yes", mentions: "--json", "no value"),
        Case("fetch", "STORE", mentions: "--entity"),
        Case("fetch", "STORE", "--entity", mentions: "--entity", "needs a value"),
        Case("fetch", "STORE", "--entity", "Team", "--entity", "Coach", mentions: "--entity", "twice"),
        Case("fetch", "STORE", "--entity", "Squad", mentions: "Squad", "Team"),
        Case("fetch", "STORE", "--entity", "Team", "--limit", "0", mentions: "--limit", "0"),
        Case("fetch", "STORE", "--entity", "Team", "--limit", "ten", mentions: "--limit", "ten"),
        Case("fetch", "STORE", "--entity", "Team", "--sort", "rank", mentions: "rank", "teamName"),
        Case("fetch", "STORE", "--entity", "Team", "--sort", "wins sideways", mentions: "sideways"),
        Case("fetch", "STORE", "--entity", "Team", "--sort", "wins,", mentions: "--sort"),
        Case("fetch", "STORE", "--entity", "Team", "--predicate", "wins >", mentions: "predicate", "offset"),
        Case("fetch", "STORE", "--entity", "Team", "--predicate", "rank > 2", mentions: "rank"),
        Case("fetch", "STORE", "--entity", "Team", "--predicate", "wins > 'many'", mentions: "wins"),
        Case("history", "STORE", "--after", "yesterday", mentions: "--after", "yesterday"),
        Case("history", "STORE", "--after", "0F7A4C52-0000-0000-0000-000000000000:2", mentions: "another store"),
        Case("history", "STORE", "--limit", "2", mentions: "--limit"),
        Case("watch", "STORE", "--entity", "Team", mentions: "--sort"),
        Case("watch", "STORE", "--sort", "wins", mentions: "--entity"),
        Case("watch", "STORE", "--entity", "Team", "--sort", "wins", "--section", "qualifyingZone", mentions: "sort by the section key"),
        Case("watch", "STORE", "--entity", "Team", "--sort", "wins", "--limit", "3", mentions: "--limit"),
    ]

    @Test(arguments: badCommandLines)
    func wrongCommandLineExits64NamingTheProblem(_ line: Case) async throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let arguments = line.arguments.map { $0 == "STORE" ? stack.storeURL.path : $0 }
        let result = try await OcdToolRunner.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        for word in line.mentions {
            #expect(result.stderr.contains(word), "the message does not mention '\(word)': \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
    }

    /// Each file ``StoredModelFixtures/BadFile`` makes, for every command.
    @Test(arguments: StoredModelFixtures.BadFile.allCases, ["info", "fetch", "history", "watch"])
    func storeThatCannotBeOpenedExits1(_ file: StoredModelFixtures.BadFile, command: String) async throws {
        let directory = TemporaryDirectory()
        let url = try file.make(in: directory)
        let options = ["fetch": ["--entity", "Team"], "watch": ["--entity", "Team", "--sort", "wins"]][command] ?? []
        let result = try await OcdToolRunner.run([command, url.path] + options)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("ocd: "), "\(result.stderr)")
        #expect(result.stderr.contains(url.path), "the message does not name the file: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpPrintsTheUsage() async throws {
        let result = try await OcdToolRunner.run(["help"])
        #expect(result.status == 0)
        for command in ["info", "fetch", "history", "watch"] {
            #expect(result.stdout.contains("ocd \(command)"))
        }
    }
}
