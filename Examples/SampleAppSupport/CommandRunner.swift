import Foundation

/// Runs a sample app's command and turns the way it ends into an exit status, so that `main.swift`
/// is one line and a bad command line never ends in a crash.
public enum CommandRunner {
    /// Success.
    public static let success: Int32 = 0
    /// Anything that went wrong after the command line was understood (`EXIT_FAILURE`).
    public static let failure: Int32 = 1
    /// A command line that does not make sense (`EX_USAGE`).
    public static let usageFailure: Int32 = 64

    /// Runs `body`; on an error, writes `<name>: error: <message>` to standard error, with the
    /// usage after a ``UsageError``.
    ///
    /// - Returns: The exit status: ``success``, ``usageFailure`` after a ``UsageError``,
    ///   ``failure`` after any other error.
    public static func run(name: String, usage: String, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return success
        } catch let error as UsageError {
            writeToStandardError("\(name): error: \(error.message)\n\(usage)")
            return usageFailure
        } catch {
            writeToStandardError("\(name): error: \(error)")
            return failure
        }
    }
}

/// Writes a line to standard error, which `print` does not reach.
public func writeToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
