/// Why an example tool stopped: the command line was wrong, or the command could not be done.
///
/// ```swift
/// throw ToolError.usage("`done` needs an item number, as in `done done 2`")
/// ```
public struct ToolError: Error, Equatable, CustomStringConvertible {
    /// Whose fault the error is, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The command line cannot be understood: exit status 2.
        case usage
        /// The command was understood but could not be done: exit status 1.
        case failure
    }

    /// Whose fault the error is.
    public let kind: Kind
    /// What went wrong and, where it helps, what to type instead.
    public let message: String

    /// A command line that cannot be understood.
    public static func usage(_ message: String) -> ToolError { ToolError(kind: .usage, message: message) }

    /// A command that could not be done.
    public static func failure(_ message: String) -> ToolError { ToolError(kind: .failure, message: message) }

    /// The process's exit status for this error: 2 for usage errors, 1 for failures, as most
    /// Unix tools do.
    public var exitCode: Int32 { kind == .usage ? 2 : 1 }

    /// The message.
    public var description: String { message }
}
