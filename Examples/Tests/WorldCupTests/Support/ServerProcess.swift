import ExampleTestSupport
import Foundation
import Testing

/// A `worldcup` server run as a child process (the executable `swift build --build-tests` puts
/// beside the test binary), on a port of its own, stopped with SIGTERM when the test is done.
final class ServerProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    /// The port it listens on, read from the line it prints once it listens.
    private(set) var port = 0
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `worldcup --port 0 --store STORE` with `arguments` on an SQLite file; call
    /// ``waitUntilListening(within:)`` next. With `fileLimit`, the server runs under `ulimit -n fileLimit`.
    convenience init(store: URL, arguments: [String] = [], fileLimit: Int? = nil) throws {
        try self.init(storeArgument: store.path, outputDirectory: store.deletingLastPathComponent(), arguments: arguments, fileLimit: fileLimit)
    }

    /// Starts `worldcup --port 0 --store STORE` on a test's own store.
    convenience init(store: ScratchStoreLocation, arguments: [String] = []) throws {
        try self.init(storeArgument: store.argument, outputDirectory: store.directory, arguments: arguments, fileLimit: nil)
    }

    private init(storeArgument: String, outputDirectory: URL, arguments: [String], fileLimit: Int?) throws {
        let executable = try Self.executable()
        let id = UUID().uuidString
        outputURL = outputDirectory.appendingPathComponent("server-\(id).out")
        errorURL = outputDirectory.appendingPathComponent("server-\(id).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let serverArguments = ["--port", "0", "--store", storeArgument] + arguments
        if let fileLimit {
            // exec, so that the process the test measures and stops is the server itself.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", executable.path] + serverArguments
        } else {
            process.executableURL = executable
            process.arguments = serverArguments
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// Waits for the line saying where the server listens, and returns the port.
    @discardableResult
    func waitUntilListening(within seconds: Double = 120) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let output = standardOutput
            if let range = output.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                let address = output[range].dropFirst("http://127.0.0.1:".count).dropLast()
                port = Int(address) ?? 0
                return port
            }
            guard process.isRunning else {
                throw Failure(description: "the server exited with status \(process.terminationStatus): \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "the server did not say where it listens within \(seconds) s: \(standardOutput) \(standardError)")
    }

    var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// The server's CPU time so far, user and system, from `/proc/PID/stat`.
    func cpuTime() throws -> Duration {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw Failure(description: "unreadable /proc stat: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw Failure(description: "unreadable /proc stat: \(stat)")
        }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1000 / ticks)
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// `worldcup`, beside the test binary (or up to three folders up, as on macOS).
    private static func executable() throws -> URL {
        var candidates: [URL] = []
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: link))
        }
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first).standardizedFileURL) }
        let directories = candidates.flatMap { executable in
            (1...4).map { level in (0..<level).reduce(executable) { url, _ in url.deletingLastPathComponent() } }
        }
        let found = directories.map { $0.appendingPathComponent("worldcup") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "worldcup was not found beside the test binary; build it with `swift build --build-tests`")
    }
}
