import Foundation
import Testing

/// The `carvalet` executable, run as a user runs it: one process per command, the store in a
/// scratch directory through `--store`.
@Suite struct CarValetToolTests {
    @Test func aSessionAtTheCommandLine() throws {
        let directory = try ScratchDirectory()
        let carvalet = try ToolProcess("carvalet", in: directory, store: directory.file("cars.sqlite"))
        #expect(try carvalet.lines("list") == ["No cars. Add one with `carvalet add`."])
        #expect(try carvalet.lines("add") == ["+ 1. 1908 (make and model not set)"])
        #expect(try carvalet.lines("add", "Ford", "Model T", "1927") == ["+ 1. 1927 Ford Model T"])
        #expect(try carvalet.lines("add", "", "Leaf") == ["+ 1. 1908 Leaf"])
        #expect(try carvalet.lines("edit", "1", "Nissan") == ["~ 1. 1908 Nissan Leaf"])
        #expect(try carvalet.lines("list") == ["1. 1908 Nissan Leaf", "2. 1927 Ford Model T", "3. 1908 (make and model not set)"])
        #expect(try carvalet.lines("edit", "3", "BMW", "i3", "2014") == ["~ 3. 2014 BMW i3"])
        #expect(try carvalet.lines("edit", "1", "Nissan", "Leaf", "2011") == ["~ 1. 2011 Nissan Leaf"])
        #expect(try carvalet.lines("delete", "2") == ["- 2. 1927 Ford Model T"])
        #expect(try carvalet.lines("list") == ["1. 2011 Nissan Leaf", "2. 2014 BMW i3"])
    }

    @Test func badInputIsRefusedAndLosesNothing() throws {
        let directory = try ScratchDirectory()
        let store = directory.file("cars.sqlite")
        let carvalet = try ToolProcess("carvalet", in: directory, store: store)
        try carvalet.expectRefusal(["add", "Ford", "Model T", "soon"], status: 64, saying: "the year must be a whole number from 1 to 32767, not \"soon\"")
        #expect(!FileManager.default.fileExists(atPath: store.path), "a refused command line must not create the store")

        _ = try carvalet.lines("add", "Ford", "Model T", "1927")
        try carvalet.expectRefusal(["add", "Ford", "Model T", "0"], status: 64, saying: "the year must be a whole number from 1")
        try carvalet.expectRefusal(["add", "Ford", "Model T", "40000"], status: 64, saying: "the year must be a whole number from 1")
        try carvalet.expectRefusal(["add", "Ford", "Model", "T", "1927"], status: 64, saying: "not \"T\"; quote a make or model with spaces")
        try carvalet.expectRefusal(["delete", "2"], status: 1, saying: "there is no car 2: the cars are numbered 1 to 1")
        try carvalet.expectRefusal(["edit", "2", "BMW"], status: 1, saying: "there is no car 2")
        try carvalet.expectRefusal(["delete"], status: 64, saying: "Missing expected argument '<row>'")
        try carvalet.expectRefusal(["delete", "1", "2"], status: 64, saying: "Unexpected argument '2'")
        try carvalet.expectRefusal(["delete", "first"], status: 64, saying: "\"first\" is not a whole number")
        try carvalet.expectRefusal(["edit", "1"], status: 64, saying: "Missing expected argument '<make>'")
        try carvalet.expectRefusal(["edit", "1", " "], status: 64, saying: "`edit` needs a make")
        // A word starting with a dash is an option, as for every tool using the argument parser;
        // after `--` it is a row number, and refused as one.
        try carvalet.expectRefusal(["edit", "-1", "BMW"], status: 64, saying: "is not a whole number")
        try carvalet.expectRefusal(["edit", "--", "-1", "BMW"], status: 64, saying: "rows are numbered from 1, not -1")
        try carvalet.expectRefusal(["park", "1"], status: 64, saying: "unexpected arguments: 'park', '1'")
        #expect(try carvalet.lines("list") == ["1. 1927 Ford Model T"])

        let help = try carvalet.run("--help")
        #expect(help.status == 0 && help.standardOutput.contains("USAGE: carvalet [--store <path|url>] [--sql] <subcommand>"))
    }

    @Test func theStoreIsInTheUsersDataDirectoryByDefault() throws {
        let directory = try ScratchDirectory()
        var carvalet = try ToolProcess("carvalet", in: directory, store: nil)
        carvalet.environment = ["XDG_DATA_HOME": directory.url.path]
        #expect(try carvalet.lines("add") == ["+ 1. 1908 (make and model not set)"])
        #expect(FileManager.default.fileExists(atPath: directory.file("CarValet/CarValet.sqlite").path))
        #expect(try carvalet.lines("list") == ["1. 1908 (make and model not set)"])
    }
}
