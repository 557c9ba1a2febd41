/// One run's work for an example tool, read from its parsed command line.
///
/// ```swift
/// struct ShowCommand: ToolCommand {
///     var row: String?
///     init(arguments: ToolArguments) throws(ToolError) { row = arguments.value(of: "--row") }
/// }
/// ```
public protocol ToolCommand {
    /// Reads the command.
    ///
    /// - Throws: ``ToolError/usage(_:)`` when the words or the tool's own options are not a
    ///   command.
    init(arguments: ToolArguments) throws(ToolError)
}

/// A command made of words alone, such as `add milk` or `delete 2`: the tool has no options of
/// its own.
///
/// ```swift
/// enum NotesCommand: WordsCommand {
///     case list
///     init(words: [String]) throws(ToolError) {
///         guard words == ["list"] else { throw .usage("the only command is list") }
///         self = .list
///     }
/// }
/// ```
public protocol WordsCommand: ToolCommand {
    /// Reads the command and its arguments.
    ///
    /// - Parameter words: The command line without the program's name and shared options.
    /// - Throws: ``ToolError/usage(_:)`` when the words are not a command.
    init(words: [String]) throws(ToolError)
}

extension WordsCommand {
    /// Reads the command from the words of the command line.
    public init(arguments: ToolArguments) throws(ToolError) {
        try self.init(words: arguments.words)
    }
}
