public import ExampleSupport
import Foundation

/// One command of the Done tool, read from its command line.
///
/// ```swift
/// try DoneCommand(words: ["add", "buy", "milk"])  // .add("buy milk")
/// try DoneCommand(words: ["done", "2"])           // .toggle(RowNumber(2))
/// ```
public enum DoneCommand: WordsCommand, Sendable, Equatable {
    /// Add an item with this text.
    case add(String)
    /// Print the items.
    case list
    /// Mark an item done, or not done again.
    case toggle(RowNumber)
    /// Delete an item.
    case delete(RowNumber)

    /// Reads a command and its arguments.
    ///
    /// The words after `add` are the item's text, joined by spaces, so quoting is optional.
    ///
    /// - Parameter words: The command line without the program's name and shared options.
    /// - Throws: ``ToolError/usage(_:)`` for a missing or unknown command, missing text, a
    ///   missing or non-numeric row number, or extra arguments.
    public init(words: [String]) throws(ToolError) {
        guard let name = words.first else {
            throw .usage("no command given; the commands are add, list, done and delete")
        }
        let arguments = Array(words.dropFirst())
        switch name {
        case "add":
            let text = arguments.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw .usage("`add` needs the item's text, as in `add \"milk\"`") }
            self = .add(text)
        case "list":
            try Self.expectNoMore(arguments, after: name, taking: 0)
            self = .list
        case "done":
            try Self.expectNoMore(arguments, after: name, taking: 1)
            self = .toggle(try RowNumber(parsing: arguments.first, command: name))
        case "delete":
            try Self.expectNoMore(arguments, after: name, taking: 1)
            self = .delete(try RowNumber(parsing: arguments.first, command: name))
        default:
            throw .usage("unknown command \(name.debugDescription); the commands are add, list, done and delete")
        }
    }

    private static func expectNoMore(_ arguments: [String], after command: String, taking count: Int) throws(ToolError) {
        guard arguments.count > count else { return }
        let extra = arguments.dropFirst(count).map(\.debugDescription).joined(separator: " ")
        throw .usage("`\(command)` takes \(count == 0 ? "no arguments" : "one row number"); unexpected \(extra)")
    }
}
