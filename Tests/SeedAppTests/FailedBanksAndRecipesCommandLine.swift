import Foundation
import Testing

// Running the sample apps' executables as a user would, for the command-line tests of both apps.

/// A directory removed when the test that made it ends.
final class SampleAppScratch: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("SeedAppTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// One finished run of a sample app's executable.
struct SampleAppRun {
    let status: Int32
    let output: String
    let errors: String

    /// The lines written to standard output.
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// Checks the run was refused the way both apps refuse bad input: `status`, nothing on
    /// standard output, `<program>: error: <message>` on standard error, and the usage after it
    /// for a bad command line (status 64) only.
    func expectRefused(by program: String, status: Int32, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, sourceLocation: sourceLocation)
        #expect(output.isEmpty, sourceLocation: sourceLocation)
        #expect(errors.hasPrefix("\(program): error: \(message)\n"), "\(errors)", sourceLocation: sourceLocation)
        #expect(errors.contains("usage: \(program)") == (status == 64), sourceLocation: sourceLocation)
    }

    /// Runs an executable built next to the test bundle, with its data and cache directories
    /// (`XDG_DATA_HOME`, `XDG_CACHE_HOME`) inside `scratch`, so that no run touches the user's.
    ///
    /// Output goes to files rather than pipes: a first launch with `--sql` writes more than a
    /// pipe holds before the run ends.
    static func run(_ name: String, _ arguments: [String], in scratch: SampleAppScratch) throws -> SampleAppRun {
        let executable = try #require(executableURL(named: name),
                                      "\(name) was not found near the test binary; build it with `swift build --build-tests`")
        let id = UUID().uuidString
        let outputFile = scratch.file("stdout-\(id)")
        let errorFile = scratch.file("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = scratch.file("data").path
        environment["XDG_CACHE_HOME"] = scratch.file("cache").path
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return SampleAppRun(status: process.terminationStatus,
                            output: try String(contentsOf: outputFile, encoding: .utf8),
                            errors: try String(contentsOf: errorFile, encoding: .utf8))
    }

    /// The executable beside the test binary, or a few directories up (on macOS the test binary
    /// is inside the `.xctest` bundle).
    private static func executableURL(named name: String) -> URL? {
        var starts = [Bundle.main.executableURL, CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }]
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: link))
        }
        for start in starts.compactMap({ $0 }) {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }
}
