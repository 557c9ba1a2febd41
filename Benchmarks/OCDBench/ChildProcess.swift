import Foundation

/// This program run again as a child process in another role (a writer the parent times or
/// checks), driven by lines on its standard input and answering on its standard output.
final class ChildProcess {
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private var buffer = Data()

    /// Starts `ocd-bench ARGUMENTS` and waits for it to say `ready`.
    init(arguments: [String]) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        let first = try readLine()
        guard first == "ready" else { throw BenchError(description: "the child process said '\(first)' instead of ready") }
    }

    deinit {
        try? input.write(contentsOf: Data("quit\n".utf8))
        process.waitUntilExit()
    }

    /// This program's own file.
    static var executable: URL {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: link)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Sends one line and returns the answer.
    func ask(_ line: String) throws -> String {
        try send(line)
        return try readLine()
    }

    /// Sends one line; ``answer()`` reads the answer, so that several children work at once.
    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line the child process says.
    func answer() throws -> String { try readLine() }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = output.availableData
            guard !more.isEmpty else { throw BenchError(description: "the child process ended without answering") }
            buffer.append(more)
        }
    }
}
