import ExampleSupport
import Foundation
import Testing
import WorldCupApp

/// `worldcup`'s command line.
@Suite struct WorldCupOptionsTests {
    @Test func theDefaultsServeLoopbackOn8080FromTheUsersDataDirectory() throws {
        let options = try WorldCupOptions(arguments: [])
        #expect(options.host == "127.0.0.1" && options.port == 8080)
        #expect(options.store.displayPath.hasSuffix("/WorldCup/WorldCup.sqlite"))
        #expect(!options.simulate && !options.reset && !options.check)
    }

    @Test func everyOptionIsRead() throws {
        let options = try WorldCupOptions(arguments: ["--port", "9000", "--store", "/tmp/cup.sqlite", "--host", "0.0.0.0",
                                                      "--simulate", "--reset", "--check"])
        #expect(options.port == 9000 && options.host == "0.0.0.0" && options.store == .file(URL(fileURLWithPath: "/tmp/cup.sqlite")))
        #expect(options.simulate && options.reset && options.check)
    }

    @Test(arguments: [
        (["--port"], "--port needs a value"),
        (["--port", "http"], "--port needs a number from 0 to 65535, not http"),
        (["--port", "70000"], "--port needs a number from 0 to 65535, not 70000"),
        (["--store", "--simulate"], "--store needs a value"),
        (["--verbose"], "unknown option '--verbose'"),
    ])
    func aWrongCommandLineSaysWhatIsWrong(arguments: [String], message: String) {
        #expect(throws: ToolError.usage(message)) { try WorldCupOptions(arguments: arguments) }
    }
}
