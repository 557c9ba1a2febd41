public import ExampleSupport

/// One command of the `recipes` tool, read from its command line.
///
/// ```swift
/// try RecipesCommand(words: ["add", "Croque Monsieur", "Snack"])  // .add(name: "Croque Monsieur", type: "Snack")
/// try RecipesCommand(words: [])                                   // .list
/// ```
public enum RecipesCommand: WordsCommand, Sendable, Equatable {
    /// Show the list: the default.
    case list
    /// Add a recipe.
    case add(name: String, type: String)
    /// Delete a recipe, found by name without case.
    case delete(name: String)

    /// Reads a command and its arguments.
    ///
    /// - Parameter words: The command line without the program's name and shared options.
    /// - Throws: ``ToolError/usage(_:)`` for an unknown command or the wrong number of arguments.
    public init(words: [String]) throws(ToolError) {
        guard let command = words.first else {
            self = .list
            return
        }
        let rest = Array(words.dropFirst())
        switch (command, rest.count) {
        case ("list", 0): self = .list
        case ("add", 2): self = .add(name: rest[0], type: rest[1])
        case ("delete", 1): self = .delete(name: rest[0])
        case ("list", _): throw .usage("list takes no arguments")
        case ("add", _): throw .usage("add takes a NAME and a TYPE (quote a name with spaces)")
        case ("delete", _): throw .usage("delete takes one NAME (quote a name with spaces)")
        default: throw .usage("unknown command '\(command)'")
        }
    }
}
