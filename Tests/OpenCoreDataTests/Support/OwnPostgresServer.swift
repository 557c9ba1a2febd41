#if Postgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A PostgreSQL server of one test's own, made and started by `Scripts/postgres-server` in a
/// temporary directory, stopped and removed when the test is done.
final class OwnPostgresServer: Sendable {
    let url: String
    private let directory: String
    private let script: String

    init(file: String = #filePath) throws {
        var root = URL(fileURLWithPath: file).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Scripts/postgres-server").path) {
            try #require(root.path != "/", "Scripts/postgres-server not found above \(file)")
            root.deleteLastPathComponent()
        }
        script = root.appendingPathComponent("Scripts/postgres-server").path
        directory = "/tmp/ocd-pg-" + UUID().uuidString.prefix(8).lowercased()
        url = try Self.run(script, "start", directory)
    }

    /// Stops the server (fast shutdown: sessions are ended) and starts it again on its port.
    func restart() throws {
        try stopServer()
        try start()
    }

    func stopServer() throws {
        _ = try Self.run(script, "stop", directory)
    }

    func start() throws {
        let again = try Self.run(script, "start", directory)
        try #require(again == url, "the server came back at \(again), not \(url)")
    }

    func stop() {
        _ = try? Self.run(script, "stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs the script; returns its standard output's last line.
    private static func run(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Foundation's `waitUntilExit()` was seen never to return for this script (the child
        // left a zombie): the child is reaped here instead.
        var status: Int32 = 0
        while waitpid(process.processIdentifier, &status, 0) < 0 && errno == EINTR {}
        try #require(status == 0, "\(arguments.joined(separator: " ")) failed (status \(status)): \(messages)")
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }
}
#endif
