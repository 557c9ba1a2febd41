import Foundation
import Testing

/// Runs a script of `Browser/` (`two_pages.py`, `two_servers.py`) with Debian's Python, which
/// has selenium (the PATH's `python3` may be another one without it), and returns what it printed.
enum BrowserScript {
    static let python = "/usr/bin/python3"
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser")

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What is missing for the browser test, or nil when everything is there.
    static func missingPrerequisites() -> String? {
        let files = [python, "/usr/bin/chromium", "/usr/bin/chromedriver"].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard files.isEmpty else {
            return "the browser test needs \(files.joined(separator: ", ")): apt-get install chromium chromium-driver python3-selenium (Scripts/test does)"
        }
        return nil
    }

    /// Runs the script `name` with `arguments`; throws with its output when it fails or runs over `timeout`.
    static func run(_ arguments: [String], script name: String = "two_pages.py", timeout: Duration = .seconds(600)) async throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("WorldCupBrowser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: nothing to drain while the script runs.
        let outputURL = directory.appendingPathComponent("stdout.json")
        let errorURL = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scripts.appendingPathComponent(name).path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let exited = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        for await _ in exited.stream {}
        watchdog.cancel()

        let output = FileManager.default.contents(atPath: outputURL.path) ?? Data()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let errors = String(decoding: FileManager.default.contents(atPath: errorURL.path) ?? Data(), as: UTF8.self)
            throw Failure(description: """
                the browser script \(name) failed (status \(process.terminationStatus)); it printed:
                \(String(decoding: output, as: UTF8.self))
                \(errors.suffix(4000))
                """)
        }
        return output
    }
}
