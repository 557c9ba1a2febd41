import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `ocd` executable, as a user would, and collects what it prints.
enum OcdToolRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The executable, beside the test binary (`swift build --build-tests` builds it: the test
    /// target depends on it).
    static func executable() throws -> URL {
        try #require(CrashHarness.executableURL(named: "ocd"),
                     "ocd was not found next to the test binary; build it with `swift build --build-tests`")
    }

    /// Runs `ocd` with `arguments` to its end.
    static func run(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> Result {
        let running = try RunningTool(arguments)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while running.process.isRunning {
            if clock.now > deadline {
                running.stop()
                Issue.record("ocd \(arguments.joined(separator: " ")) did not finish in \(timeout)")
                break
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        await running.stdout.waitForEnd(timeout: .seconds(5))
        await running.stderr.waitForEnd(timeout: .seconds(5))
        return Result(status: running.process.terminationStatus, stdout: running.stdout.text, stderr: running.stderr.text)
    }

    /// Decodes what a `--json` run printed.
    static func decode<T: Decodable>(_ type: T.Type, from result: Result) throws -> T {
        try #require(result.status == 0, "ocd failed (\(result.status)): \(result.stderr)")
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }
}

/// An `ocd` process still running (`watch`), read line by line.
final class RunningTool {
    let process: Process
    let stdout: OutputCollector
    let stderr: OutputCollector

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try OcdToolRunner.executable()
        process.arguments = arguments
        self.process = process
        (stdout, stderr) = OutputCollector.collecting(process)
        try process.run()
    }

    /// The complete lines printed so far.
    var lines: [String] {
        let text = stdout.text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return Array(lines.dropLast())  // after the last newline: an empty or a partial line
    }

    /// Waits until at least `count` complete lines have been printed, and returns them.
    func waitForLines(_ count: Int, timeout: Duration) async throws -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while lines.count < count {
            guard process.isRunning else {
                throw ToolStopped(description: "ocd exited (status \(process.terminationStatus)) after \(lines.count) lines: \(stderr.text)")
            }
            guard clock.now < deadline else {
                throw ToolStopped(description: "ocd printed \(lines.count) lines in \(timeout), not \(count): \(lines.joined(separator: "\n"))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return lines
    }

    /// Stops the process (SIGTERM) and waits for it to end.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// `ocd` ended, or printed less than expected.
struct ToolStopped: Error, CustomStringConvertible {
    let description: String
}
