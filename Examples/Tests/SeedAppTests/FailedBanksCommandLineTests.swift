import Foundation
import Testing

/// `failedbanks` run as a user runs it: the first launch imports, every launch prints the first
/// screen, `--delete` deletes and shows the change, bad input is refused without losing anything.
@Suite struct FailedBanksCommandLineTests {
    private static let total = 300

    private func run(_ arguments: [String], in scratch: ScratchDirectory) throws -> ToolRun {
        try ToolProcess("failedbanks", in: scratch, store: scratch.file("Banks.sqlite")).run(arguments)
    }

    /// The numbered rows of the first screen.
    private func screen(_ run: ToolRun) -> [String] {
        run.lines.filter { $0.range(of: #"^ *\d+\. "#, options: .regularExpression) != nil }
    }

    @Test func theFirstLaunchImportsAndEveryLaunchShowsTheFirstScreen() throws {
        let scratch = try ScratchDirectory()
        let first = try run([], in: scratch)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.lines.first == "Imported \(Self.total) banks into \(scratch.file("Banks.sqlite").path)")
        #expect(first.lines.contains("Failed banks: \(Self.total), latest to close first"))
        #expect(screen(first).count == 10)
        #expect(screen(first).allSatisfy { $0.contains(" — closed 20") })
        #expect(first.lines.last == "     … \(Self.total - 10) more")

        let second = try run([], in: scratch)
        #expect(second.status == 0)
        #expect(!second.standardOutput.contains("Imported"))
        #expect(screen(second) == screen(first))
    }

    @Test func theSQLTraceShowsTheIDsThenOneBatch() throws {
        let scratch = try ScratchDirectory()
        _ = try run([], in: scratch)
        let traced = try run(["--sql"], in: scratch)
        #expect(traced.status == 0)
        let selects = traced.standardError.split(separator: "\n").filter { $0.hasPrefix("sql: SELECT") && $0.contains("FailedBank") }
        // The first-launch check, the ordered IDs, then one batch of banks and their details.
        #expect(selects.count == 4, "\(selects)")
        #expect(selects.filter { $0.contains("ORDER BY t1.\"closeDate\" DESC") }.count == 1)
        let batches = selects.filter { $0.contains("\"_pk\" IN (") }
        #expect(batches.count == 2)
        // Each for the batch's 20 keys, in a list of 32 places: the store pads a list to a power
        // of two with its last key, so that a few prepared statements serve every batch.
        #expect(batches.allSatisfy { $0.filter { $0 == "?" }.count == 32 })
    }

    @Test func deleteRemovesTheBankAndShowsTheChange() throws {
        let scratch = try ScratchDirectory()
        let before = screen(try run([], in: scratch))
        let deleted = try run(["--delete", "2"], in: scratch)
        #expect(deleted.status == 0, "\(deleted.standardError)")
        let second = try #require(before.dropFirst().first).replacingOccurrences(of: #"^ *2\. "#, with: "", options: .regularExpression)
        let name = try #require(second.components(separatedBy: " — ").first)
        #expect(deleted.lines.first == "Deleted row 2: \(second)")
        #expect(deleted.lines.dropFirst().first == "  table: delete row [0,1] \(name)")
        #expect(deleted.lines.contains("Failed banks: \(Self.total - 1), latest to close first"))

        let after = try run([], in: scratch)
        #expect(after.lines.first == "Failed banks: \(Self.total - 1), latest to close first")
        #expect(!after.standardOutput.contains(name))
        #expect(screen(after).first == before.first)
    }

    @Test(arguments: [
        (["--delete", "0"], Int32(64), "The value '0' is invalid for '--delete <row>': rows are numbered from 1, not 0"),
        (["--delete", "two"], 64, "The value 'two' is invalid for '--delete <row>': \"two\" is not a whole number; rows are numbered from 1, as the list shows them"),
        (["--delete"], 64, "Missing value for '--delete <row>'"),
        (["--frobnicate"], 64, "Unknown option '--frobnicate'"),
        (["list"], 64, "Unexpected argument 'list'"),
        (["--delete", "301"], 1, "there is no bank at row 301; the list has 300 banks"),
    ])
    func badInputIsRefusedAndLosesNothing(arguments: [String], status: Int32, message: String) throws {
        let scratch = try ScratchDirectory()
        _ = try run([], in: scratch)
        let refused = try run(arguments, in: scratch)
        refused.expectRefused(status: status, saying: message)
        #expect(refused.errorMessage == message)
        let after = try run([], in: scratch)
        #expect(after.lines.first == "Failed banks: \(Self.total), latest to close first")
    }

    @Test func aBadCommandLineOnTheFirstLaunchImportsNothing() throws {
        let scratch = try ScratchDirectory()
        let refused = try run(["--delete", "0"], in: scratch)
        refused.expectRefused(status: 64, saying: "rows are numbered from 1, not 0")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("Banks.sqlite").path))
    }

    @Test func aFileThatIsNotAStoreIsLeftAlone() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.file("Banks.sqlite")
        let contents = Data("my notes, not a database\n".utf8)
        try contents.write(to: file)
        let refused = try run([], in: scratch)
        refused.expectRefused(status: 1, saying: "cannot open the store \(file.path): the file is not an SQLite database")
        #expect(refused.errorMessage == "cannot open the store \(file.path): the file is not an SQLite database")
        #expect(try Data(contentsOf: file) == contents)
    }

    @Test func withoutStoreTheStoreIsInTheDataDirectory() throws {
        let scratch = try ScratchDirectory()
        let launched = try ToolProcess("failedbanks", in: scratch, store: nil).run()
        #expect(launched.status == 0, "\(launched.standardError)")
        let file = scratch.file("data/FailedBanks/FailedBanks.sqlite")
        #expect(launched.lines.first == "Imported \(Self.total) banks into \(file.path)")
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func helpPrintsTheUsage() throws {
        let help = try ToolProcess("failedbanks", in: try ScratchDirectory(), store: nil).run("--help")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: failedbanks [--store <path|url>] [--sql] [--delete <row>]"))
    }
}
