/// An example app's command-line tool: each run opens the app's store, reads one command, runs
/// it on a new context and prints what happened.
///
/// A tool supplies its names, its commands and how to run one; ``run(_:output:now:)`` does the
/// rest, the same way for every tool: the shared options (`--store PATH`, `--sql`, `--help`),
/// the usage text, and errors turned into messages on standard error and exit statuses (64 for a
/// bad command line, 1 for a command that could not be done).
///
/// ```swift
/// enum NotesTool: ExampleTool {
///     typealias Store = NotesStore
///     static let toolName = "notes"
///     static let synopsis = "COMMAND"
///     static let commandSummary = "  list   show the notes"
///     static func perform(_ command: NotesCommand, in session: ToolSession) throws { ... }
/// }
/// exit(NotesTool.run(CommandLine.arguments.dropFirst()))
/// ```
public protocol ExampleTool {
    /// One run's work, read from the command line.
    associatedtype Command: ToolCommand
    /// The app's model and store.
    associatedtype Store: ExampleStore

    /// The name the user types, which starts every message.
    static var toolName: String { get }
    /// What follows the shared options in the usage line: `COMMAND`, `[--delete ROW]`.
    static var synopsis: String { get }
    /// The commands, one indented line each, for the usage text; empty for a tool without any.
    static var commandSummary: String { get }
    /// The tool's own options, one indented line each, listed before the shared ones; none by
    /// default.
    static var optionSummary: String { get }
    /// What else the usage text should say, such as what the first launch does; nothing by
    /// default.
    static var usageNote: String { get }
    /// The tool's own options that take a value, such as `--delete`; none by default.
    static var valueOptions: Set<String> { get }

    /// Runs a command on the opened store, printing what it did.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - session: The store, a context on it, the output and the clock.
    /// - Throws: An error whose description the user should read; the tool exits with status 1
    ///   (or ``ToolError/exitCode``).
    static func perform(_ command: Command, in session: ToolSession) throws
}

extension ExampleTool {
    /// No options of the tool's own.
    public static var optionSummary: String { "" }
    /// No note.
    public static var usageNote: String { "" }
    /// No options of the tool's own.
    public static var valueOptions: Set<String> { [] }
}
