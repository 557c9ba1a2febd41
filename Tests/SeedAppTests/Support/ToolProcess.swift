import Foundation
import Testing

/// One finished run of an example tool's executable, as a user's shell would see it.
struct ToolRun: CustomStringConvertible {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The lines of standard output.
    var lines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    var description: String { "status \(status)\nstdout:\n\(standardOutput)stderr:\n\(standardError)" }
}

/// An example tool's executable, built beside the test binary by `swift build --build-tests`,
/// run as a child process.
struct ToolProcess {
    let executable: URL
    /// The store file every run is given with `--store`, or nil to give none.
    var store: URL?
    /// Variables added to the child's environment.
    var environment: [String: String] = [:]

    /// The executable `name`, looked for beside the test binary and up to three folders up (on
    /// macOS the test binary sits inside `X.xctest/Contents/MacOS/`).
    init(_ name: String, store: URL?) throws {
        var candidates: [URL] = []
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: link))
        }
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first).standardizedFileURL) }
        if let main = Bundle.main.executableURL { candidates.append(main) }
        let directories = candidates.flatMap { executable in
            (1...4).map { level in (0..<level).reduce(executable) { url, _ in url.deletingLastPathComponent() } }
        }
        let found = directories.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        executable = try #require(found, "\(name) was not found beside the test binary (in \(directories.map(\.path))); build it with `swift build --build-tests`")
        self.store = store
    }

    /// Runs the tool with `--store` (when set) and `arguments`, and waits for it.
    func run(_ arguments: String...) throws -> ToolRun {
        try run(arguments)
    }

    /// Runs a command that must succeed quietly on standard error, and returns its output lines.
    func lines(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try run(arguments)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(arguments): \(run)", sourceLocation: sourceLocation)
        return run.lines
    }

    /// Runs a command that must be refused: this exit status, nothing on standard output, and
    /// `message` on standard error.
    func expectRefusal(_ arguments: [String], status: Int32, saying message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try run(arguments)
        #expect(run.status == status && run.standardOutput.isEmpty && run.standardError.contains(message),
                "\(arguments) should fail with status \(status) saying \(message.debugDescription): \(run)",
                sourceLocation: sourceLocation)
    }

    private func run(_ arguments: [String]) throws -> ToolRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = (store.map { ["--store", $0.path] } ?? []) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Files, not pipes: a child never blocks on a full pipe that nobody reads yet.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        let outURL = scratch.appendingPathExtension("out")
        let errURL = scratch.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolRun(status: process.terminationStatus,
                       standardOutput: try String(contentsOf: outURL, encoding: .utf8),
                       standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
