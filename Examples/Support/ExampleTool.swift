public import Foundation
public import OpenCoreData

/// An example app's command-line tool: each run opens the app's store, reads one command, runs
/// it on a new context and prints what happened.
///
/// A tool supplies its names, its commands and how to run one; ``run(_:output:now:)`` does the
/// rest: the shared options (`--store PATH`, `--help`), the usage text, and errors turned into
/// messages on standard error and exit statuses.
///
/// ```swift
/// enum NotesTool: ExampleTool {
///     static let toolName = "notes"
///     static let containerName = "Notes"
///     static let managedObjectClasses: [ManagedObject.Type] = [Note.self]
///     static let commandSummary = "  list   show the notes"
///     static func command(from words: [String]) throws(ToolError) -> [String] { words }
///     static func perform(_ command: [String], in context: ManagedObjectContext, output: ToolOutput,
///                         now: @escaping () -> Date) throws { ... }
/// }
/// exit(NotesTool.run(CommandLine.arguments.dropFirst()))
/// ```
public protocol ExampleTool {
    /// One run's work, read from the command line.
    associatedtype Command

    /// The name the user types, which starts every message.
    static var toolName: String { get }
    /// The container's name, which names the default store: `<data directory>/<name>/<name>.sqlite`.
    static var containerName: String { get }
    /// The classes of the store's model.
    static var managedObjectClasses: [ManagedObject.Type] { get }
    /// The commands, one indented line each, for the usage text.
    static var commandSummary: String { get }

    /// Reads the command from the command line without the program's name and shared options.
    ///
    /// - Throws: ``ToolError/usage(_:)`` when the words are not a command.
    static func command(from words: [String]) throws(ToolError) -> Command

    /// Runs a command on a new context of the opened store, printing what it did.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - context: A private-queue context on the store.
    ///   - output: Where to print.
    ///   - now: The clock for creation dates.
    /// - Throws: An error whose description the user should read; it exits with status 1 (or
    ///   ``ToolError/exitCode``).
    static func perform(_ command: Command, in context: ManagedObjectContext, output: ToolOutput,
                        now: @escaping () -> Date) throws
}

extension ExampleTool {
    /// What `--help` prints.
    public static var usage: String {
        """
        usage: \(toolName) [--store PATH] COMMAND

        commands:
        \(commandSummary)

        N is the number `list` shows. The store is \(ExampleStore.defaultURL(name: containerName).path)
        unless --store names another file.
        """
    }

    /// Runs one command line.
    ///
    /// The whole command is read before the store is opened, so a mistyped command line creates
    /// no file.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program's name.
    ///   - output: Where to print.
    ///   - now: The clock for creation dates.
    /// - Returns: The exit status: 0; 1 when the command cannot be done (no such row, a store that
    ///   cannot be opened); 2 when the command line is wrong. A usage error is followed by a hint
    ///   to run `--help`.
    public static func run(_ arguments: some Sequence<String>, output: ToolOutput = .standard,
                           now: @escaping () -> Date = Date.init) -> Int32 {
        do {
            let invocation = try ToolInvocation(parsing: Array(arguments))
            if invocation.wantsHelp {
                output.print(usage)
                return 0
            }
            let command = try command(from: invocation.words)
            let container = try ExampleStore.open(name: containerName, managedObjectClasses: managedObjectClasses,
                                                  at: invocation.storeURL)
            try perform(command, in: container.newBackgroundContext(), output: output, now: now)
            return 0
        } catch let error as ToolError {
            output.printError("\(toolName): \(error.message)")
            if error.kind == .usage { output.printError("Run `\(toolName) --help` for the commands.") }
            return error.exitCode
        } catch {
            output.printError("\(toolName): \(error)")
            return 1
        }
    }
}
