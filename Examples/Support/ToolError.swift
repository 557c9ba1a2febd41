/// Why an example tool stopped: the command line was wrong, or the command could not be done.
///
/// Every example tool reports it the same way: `<tool>: error: <message>` on standard error, the
/// usage text after a usage error, and ``exitCode`` as the process's status.
///
/// ```swift
/// throw ToolError.usage("`done` needs a row number from `list`, as in `done 2`")
/// throw ToolError.failure("there is no bank at row 301; the list has 300 banks")
/// ```
public struct ToolError: Error, Equatable, CustomStringConvertible {
    /// Whose fault the error is, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The command line cannot be understood: exit status 64.
        case usage
        /// The command was understood but could not be done: exit status 1.
        case failure
    }

    /// The exit status of a command line that cannot be understood: `EX_USAGE` from
    /// `<sysexits.h>`, which tells a script that retrying the same words will not help.
    public static let usageExitCode: Int32 = 64
    /// The exit status of a command that could not be done (`EXIT_FAILURE`).
    public static let failureExitCode: Int32 = 1

    /// Whose fault the error is.
    public let kind: Kind
    /// What went wrong and, where it helps, what to type instead.
    public let message: String

    /// A command line that cannot be understood.
    public static func usage(_ message: String) -> ToolError { ToolError(kind: .usage, message: message) }

    /// A command that could not be done: a row that does not exist, a name already taken, a
    /// store that cannot be opened.
    public static func failure(_ message: String) -> ToolError { ToolError(kind: .failure, message: message) }

    /// The process's exit status for this error: ``usageExitCode`` (64) for usage errors,
    /// ``failureExitCode`` (1) for failures.
    public var exitCode: Int32 { kind == .usage ? Self.usageExitCode : Self.failureExitCode }

    /// The message.
    public var description: String { message }
}
