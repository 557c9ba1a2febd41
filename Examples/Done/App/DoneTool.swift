public import ArgumentParser
public import ExampleSupport

/// The Done command-line tool: `done add "milk"`, `done list`, `done done 2`, `done delete 2`.
///
/// Each run opens the store, fetches the list with a fetched results controller, runs one
/// command, and prints what the controller reported of the save (or, for `list`, its rows).
///
/// ```swift
/// DoneTool.main()
/// ```
public struct DoneTool: ParsableCommand {
    /// `done` and its four commands.
    public static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "A to-do list, oldest first; each change prints what the fetched results controller reported.",
        subcommands: [Add.self, List.self, Toggle.self, Delete.self]
    )

    /// `--store PATH` and `--sql`, which may also follow the command.
    @OptionGroup public var storage: StoreOptions<DoneStore>

    /// A command line without a command yet.
    public init() {}

    /// Runs when no command is given: a usage error naming the commands.
    public func run() throws {
        throw ValidationError("no command given; the commands are add, list, done and delete")
    }

    /// Runs a command on a ``TodoList`` whose table prints each change; a ``TodoListError``
    /// reaches the user as its description, with status 1.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - session: The store, a context on it, the output and the clock.
    public static func perform(_ command: DoneCommand, in session: ToolSession) throws {
        let output = session.output
        let list = try TodoList(context: session.context, table: TodoChangePrinter(write: output.print), now: session.now)
        switch command {
        case .add(let text): try list.add(text)
        case .toggle(let row): try list.toggle(number: row.number)
        case .delete(let row): try list.delete(number: row.number)
        case .list:
            let rows = list.rows
            if rows.isEmpty { output.print("Nothing to do. Add an item with `done add TEXT`.") }
            rows.forEach { output.print($0.description) }
        }
    }
}
