public import ExampleSupport

/// The Done command-line tool: `done add "milk"`, `done list`, `done done 2`, `done delete 2`.
///
/// Each run opens the store, fetches the list with a fetched results controller, runs one
/// command, and prints what the controller reported of the save (or, for `list`, its rows).
///
/// ```swift
/// exit(DoneTool.run(CommandLine.arguments.dropFirst()))
/// ```
public enum DoneTool: ExampleTool {
    /// The store of ``Item``s.
    public typealias Store = DoneStore

    /// `done`.
    public static let toolName = "done"
    /// One command and its arguments.
    public static let synopsis = "COMMAND"
    /// Add, list, done and delete.
    public static let commandSummary = """
          add TEXT     add a to-do item
          list         show the items, oldest first; ✓ marks done ones
          done N       mark item N done, or not done again
          delete N     delete item N
        """
    /// What N is.
    public static let usageNote = "N is the number `list` shows."

    /// Runs a command on a ``TodoList`` whose table prints each change; a ``TodoListError``
    /// reaches the user as its description, with status 1.
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
