import Foundation
import Testing

/// An example tool's executable, built beside the test binary by `swift build --build-tests`,
/// run as a child process with its data and cache directories (`XDG_DATA_HOME`,
/// `XDG_CACHE_HOME`) and working directory inside a scratch directory, so that no run touches
/// the user's.
struct ToolProcess {
    /// The name the user types.
    let name: String
    let executable: URL
    let scratch: ScratchDirectory
    /// The store every run is given with `--store` (a file's path, a `postgres://` URL), or nil
    /// to give none.
    var store: String?
    /// Variables added to the child's environment, over the scratch directories.
    var environment: [String: String] = [:]

    /// The executable `name`, looked for beside the test binary and up to three folders up (on
    /// macOS the test binary sits inside `X.xctest/Contents/MacOS/`).
    init(_ name: String, in scratch: ScratchDirectory, store: URL?) throws {
        try self.init(name, in: scratch, storeArgument: store?.path)
    }

    /// The executable `name`, run with `--store storeArgument` (when not nil).
    init(_ name: String, in scratch: ScratchDirectory, storeArgument: String?) throws {
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
        self.name = name
        self.scratch = scratch
        self.store = storeArgument
    }

    /// Runs the tool with `--store` (when set) and `arguments`, and waits for it.
    func run(_ arguments: String...) throws -> ToolRun {
        try run(arguments)
    }

    /// Runs a command that must succeed quietly on standard error, and returns its output lines.
    func lines(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try run(arguments)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return run.lines
    }

    /// Runs a command that must be refused with this exit status, saying `message`: see
    /// ``ToolRun/expectRefused(status:saying:sourceLocation:)``.
    func expectRefusal(_ arguments: [String], status: Int32, saying message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try run(arguments).expectRefused(status: status, saying: message, sourceLocation: sourceLocation)
    }

    /// Runs the tool with `--store` (when set) and `arguments`, and waits for it.
    ///
    /// Output goes to files rather than pipes: a child never blocks on a full pipe that nobody
    /// reads yet (a first launch with `--sql` writes more than a pipe holds).
    func run(_ arguments: [String]) throws -> ToolRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = (store.map { ["--store", $0] } ?? []) + arguments
        process.currentDirectoryURL = scratch.url
        let scratchHomes = ["XDG_DATA_HOME": scratch.file("data").path, "XDG_CACHE_HOME": scratch.file("cache").path]
        process.environment = ProcessInfo.processInfo.environment.merging(scratchHomes) { $1 }.merging(environment) { $1 }
        let id = UUID().uuidString
        let outURL = scratch.file("stdout-\(id)")
        let errURL = scratch.file("stderr-\(id)")
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
        return ToolRun(tool: name, arguments: process.arguments ?? arguments, status: process.terminationStatus,
                       standardOutput: try String(contentsOf: outURL, encoding: .utf8),
                       standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
