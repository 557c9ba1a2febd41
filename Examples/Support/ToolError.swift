/// Why an example tool's command could not be done: a row that does not exist, a name already
/// taken, a store that cannot be opened.
///
/// The argument parser reports it as every tool's errors are reported, `Error: <message>` on
/// standard error, and exits with status 1; a command line it cannot understand is its own
/// `ValidationError`, with the usage after the message and status 64 (`EX_USAGE`).
///
/// ```swift
/// throw ToolError.failure("there is no bank at row 301; the list has 300 banks")
/// ```
public struct ToolError: Error, Equatable, CustomStringConvertible {
    /// What went wrong and, where it helps, what to type instead.
    public let message: String

    /// A command that could not be done.
    ///
    /// - Parameter message: What went wrong, for the user to read.
    public static func failure(_ message: String) -> ToolError { ToolError(message: message) }

    /// The message.
    public var description: String { message }
}
