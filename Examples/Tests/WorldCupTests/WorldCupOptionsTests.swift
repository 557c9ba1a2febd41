import ArgumentParser
import ExampleSupport
import Foundation
import Testing
import WorldCupApp

/// `worldcup`'s command line.
@Suite struct WorldCupOptionsTests {
    @Test func theDefaultsServeLoopbackOn8080FromTheUsersDataDirectory() throws {
        let options = try WorldCupOptions.parse([])
        #expect(options.host == "127.0.0.1" && options.port == 8080)
        #expect(options.store.displayPath.hasSuffix("/WorldCup/WorldCup.sqlite"))
        #expect(!options.simulate && !options.reset && !options.check)
        #expect(options.limits.requestTimeout == .seconds(30) && options.limits.idleTimeout == .seconds(30))
    }

    @Test func everyOptionIsRead() throws {
        let options = try WorldCupOptions.parse(["--port", "9000", "--store", "/tmp/cup.sqlite", "--host", "0.0.0.0",
                                                 "--simulate", "--reset", "--check", "--timeout", "2.5"])
        #expect(options.limits.requestTimeout == .milliseconds(2500) && options.limits.idleTimeout == .milliseconds(2500))
        #expect(options.port == 9000 && options.host == "0.0.0.0" && options.store == .file(URL(fileURLWithPath: "/tmp/cup.sqlite")))
        #expect(options.simulate && options.reset && options.check)
    }

    /// `--store` takes a PostgreSQL URL as well as a path, and messages show it without its password.
    @Test(arguments: ["postgres://cup:secret@db.local:5433/cup?pool=4", "POSTGRESQL://cup@db.local/cup"])
    func aPostgresURLNamesAPostgresStore(url: String) throws {
        let options = try WorldCupOptions.parse(["--store", url])
        #expect(options.store == .postgres(url))
        #expect(!options.store.displayPath.contains("secret"))
        #expect(options.store.displayPath.contains("db.local"))
    }

    @Test(arguments: [
        (["--port"], "Missing value for '--port <n>'"),
        (["--port", "http"], "The value 'http' is invalid for '--port <n>'"),
        (["--port", "70000"], "--port needs a number from 0 to 65535, not 70000"),
        (["--store", "--simulate"], "Missing value for '--store <path|url>'"),
        (["--verbose"], "Unknown option '--verbose'"),
        (["--timeout", "0"], "--timeout needs a number of seconds above 0 and at most 86400, not 0.0"),
        (["--timeout", "nan"], "--timeout needs a number of seconds above 0 and at most 86400, not nan"),
    ])
    func aWrongCommandLineSaysWhatIsWrongWithStatus64(arguments: [String], message: String) {
        do {
            let options = try WorldCupOptions.parse(arguments)
            Issue.record("\(arguments) was read as \(options)")
        } catch {
            #expect(WorldCupOptions.message(for: error) == message)
            #expect(WorldCupOptions.exitCode(for: error).rawValue == 64)
        }
    }
}
