import Foundation
import OpenCoreData

/// A ``CardWriter`` running in a child process, driven a command at a time.
final class CardWriterProcess {
    enum Failure: Error, CustomStringConvertible {
        case writer(String)
        case ended(String)

        var description: String {
            switch self {
            case .writer(let message): "the other process failed: \(message)"
            case .ended(let what): "the other process ended \(what)"
            }
        }
    }

    private let command: [String]
    private let storeLocation: String
    private var process: Process?
    private var input: FileHandle?
    private var output: LineReader?

    /// A writer started by running `command` (an executable and its first arguments) with the
    /// store's location (an SQLite path or a PostgreSQL URL) appended.
    init(command: [String], storeLocation: String) throws {
        self.command = command
        self.storeLocation = storeLocation
        try start()
    }

    deinit {
        try? input?.write(contentsOf: Data("quit\n".utf8))
        process?.terminate()
    }

    private func start() throws {
        guard let executable = command.first else { throw Failure.writer("no command to start it with") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst()) + [storeLocation]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        self.process = process
        input = stdin.fileHandleForWriting
        output = LineReader(stdout.fileHandleForReading)
        try expect("ready")
    }

    /// Runs one command; returns the store's generation after it.
    func run(_ line: String) throws -> Int64 {
        try send(line)
        let answer = try readAnswer()
        guard answer.hasPrefix("committed "), let generation = Int64(answer.dropFirst("committed ".count)) else {
            throw Failure.writer(answer)
        }
        return generation
    }

    /// Runs a `stall` command and kills the writer `delay` after it says it is saving: before,
    /// during or after the commit. A new writer takes its place.
    func killWhileSaving(_ line: String, after delay: TimeInterval) throws {
        try send(line)
        try expect("saving")
        Thread.sleep(forTimeInterval: delay)
        if let process {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try start()
    }

    private func send(_ line: String) throws {
        guard let input else { throw Failure.ended("before the command '\(line)'") }
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    private func expect(_ expected: String) throws {
        let answer = try readAnswer()
        guard answer == expected else { throw Failure.writer("said '\(answer)' where '\(expected)' was expected") }
    }

    private func readAnswer() throws -> String {
        guard let line = output?.nextLine() else { throw Failure.ended("without answering") }
        return line
    }

    /// The store generation a coordinator's store is at: what ``CardWriter`` reports.
    static func generation(of coordinator: PersistentStoreCoordinator) throws -> Int64 {
        guard let token = try coordinator.currentPersistentHistoryToken(fromStores: nil),
              let number = token.description.split(separator: ":").last.flatMap({ Int64($0) }) else {
            throw Failure.writer("the store keeps no history, so commits cannot be counted")
        }
        return number
    }
}

/// Lines from a pipe, read as they come.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = handle.availableData
            guard !more.isEmpty else { return nil }
            buffer.append(more)
        }
    }
}
