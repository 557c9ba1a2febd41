public import ExampleSupport
public import Foundation
public import OpenCoreData

/// The Done command-line tool: `done add "milk"`, `done list`, `done done 2`, `done delete 2`.
///
/// Each run opens the store, fetches the list with a fetched results controller, runs one
/// command, and prints what the controller reported of the save (or, for `list`, its rows).
///
/// ```swift
/// exit(DoneTool.run(CommandLine.arguments.dropFirst()))
/// ```
public enum DoneTool: ExampleTool {
    /// `done`.
    public static let toolName = "done"
    /// `Done`: the store is `<data directory>/Done/Done.sqlite` by default.
    public static let containerName = "Done"
    /// The to-do ``Item``.
    public static let managedObjectClasses: [ManagedObject.Type] = [Item.self]
    /// Add, list, done and delete.
    public static let commandSummary = """
          add TEXT     add a to-do item
          list         show the items, oldest first; ✓ marks done ones
          done N       mark item N done, or not done again
          delete N     delete item N
        """

    /// Reads a ``DoneCommand``.
    public static func command(from words: [String]) throws(ToolError) -> DoneCommand {
        try DoneCommand(words: words)
    }

    /// Runs a command on a ``TodoList`` whose table prints each change; a ``TodoListError``
    /// reaches the user as its description, with status 1.
    public static func perform(_ command: DoneCommand, in context: ManagedObjectContext, output: ToolOutput,
                               now: @escaping () -> Date) throws {
        let list = try TodoList(context: context, table: TodoChangePrinter(write: output.print), now: now)
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
