import ExampleTestSupport
import Foundation
import Testing

/// The `done` executable, run as a user runs it: one process per command, the store in a
/// scratch directory through `--store`.
@Suite struct DoneToolTests {
    /// On an SQLite file and, with the `Postgres` trait, on a PostgreSQL store (`--store postgres://…`).
    @Test(arguments: ScratchStoreLocation.Kind.allCases)
    func aSessionAtTheCommandLine(_ kind: ScratchStoreLocation.Kind) throws {
        let directory = try ScratchDirectory()
        let store = try ScratchStoreLocation(kind, fileName: "todo.sqlite")
        let done = try ToolProcess("done", in: directory, storeArgument: store.argument)
        #expect(try done.lines("list") == ["Nothing to do. Add an item with `done add TEXT`."])
        #expect(try done.lines("add", "milk") == ["+ milk"])
        #expect(try done.lines("add", "buy", "eggs") == ["+ buy eggs"])
        #expect(try done.lines("add", "--", "-5 °C in the freezer") == ["+ -5 °C in the freezer"])
        #expect(try done.lines("list") == ["1 [ ] milk", "2 [ ] buy eggs", "3 [ ] -5 °C in the freezer"])
        #expect(try done.lines("done", "2") == ["✓ buy eggs"])
        #expect(try done.lines("list") == ["1 [ ] milk", "2 [✓] buy eggs", "3 [ ] -5 °C in the freezer"])
        #expect(try done.lines("done", "2") == ["○ buy eggs"])
        #expect(try done.lines("delete", "1") == ["- milk"])
        #expect(try done.lines("list") == ["1 [ ] buy eggs", "2 [ ] -5 °C in the freezer"])
    }

    @Test func badInputIsRefusedAndLosesNothing() throws {
        let directory = try ScratchDirectory()
        let store = directory.file("todo.sqlite")
        let done = try ToolProcess("done", in: directory, store: store)
        try done.expectRefusal(["add"], status: 64, saying: "Missing expected argument '<text> ...'")
        #expect(!FileManager.default.fileExists(atPath: store.path), "a refused command line must not create the store")

        _ = try done.lines("add", "milk")
        try done.expectRefusal(["add", "  "], status: 64, saying: "`add` needs the item's text")
        try done.expectRefusal(["done", "2"], status: 1, saying: "there is no item 2: the items are numbered 1 to 1")
        try done.expectRefusal(["delete", "0"], status: 64, saying: "rows are numbered from 1, not 0")
        try done.expectRefusal(["delete", "two"], status: 64, saying: "\"two\" is not a whole number")
        try done.expectRefusal(["delete", "99999999999999999999"], status: 64, saying: "is not a whole number")
        try done.expectRefusal(["done"], status: 64, saying: "Missing expected argument '<row>'")
        try done.expectRefusal(["done", "1", "2"], status: 64, saying: "Unexpected argument '2'")
        try done.expectRefusal(["list", "all"], status: 64, saying: "Unexpected argument 'all'")
        try done.expectRefusal(["finish", "1"], status: 64, saying: "unexpected arguments: 'finish', '1'")
        try done.expectRefusal(["--verbose", "list"], status: 64, saying: "Unknown option '--verbose'")
        try done.expectRefusal([], status: 64, saying: "no command given")
        try done.expectRefusal(["list", "--store"], status: 64, saying: "Missing value for '--store <path|url>'")
        #expect(try done.lines("list") == ["1 [ ] milk"])

        let help = try done.run("--help")
        #expect(help.status == 0 && help.standardOutput.contains("USAGE: done [--store <path|url>] [--sql] <subcommand>"))
    }

    @Test func aFileThatIsNotAStoreIsReportedAndLeftAlone() throws {
        let directory = try ScratchDirectory()
        let file = directory.file("notes.txt")
        let text = Data("not a database, just notes\n".utf8)
        try text.write(to: file)
        try ToolProcess("done", in: directory, store: file).expectRefusal(["list"], status: 1, saying: "cannot open the store \(file.path)")
        #expect(try Data(contentsOf: file) == text)
    }

    @Test func theStoreIsInTheUsersDataDirectoryByDefault() throws {
        let directory = try ScratchDirectory()
        var done = try ToolProcess("done", in: directory, store: nil)
        done.environment = ["XDG_DATA_HOME": directory.url.path]
        #expect(try done.lines("add", "milk") == ["+ milk"])
        #expect(FileManager.default.fileExists(atPath: directory.file("Done/Done.sqlite").path))
        #expect(try done.lines("list") == ["1 [ ] milk"])

        // --store may follow the command, and names a file whose folder is made if needed.
        let elsewhere = directory.file("elsewhere/todo.sqlite")
        #expect(try done.lines("add", "eggs", "--store", elsewhere.path) == ["+ eggs"])
        #expect(try done.lines("list", "--store", elsewhere.path) == ["1 [ ] eggs"])
        #expect(try done.lines("list") == ["1 [ ] milk"])
    }
}
