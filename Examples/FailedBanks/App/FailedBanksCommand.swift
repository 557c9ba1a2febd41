public import ExampleSupport

/// What one run of `failedbanks` is asked to do, read from its command line: show the first
/// screen, after deleting a bank if `--delete ROW` says so.
///
/// ```swift
/// try FailedBanksCommand(arguments: ToolArguments(parsing: ["--delete", "2"], valueOptions: ["--delete"]))
/// // rowToDelete: RowNumber(2)
/// ```
public struct FailedBanksCommand: ToolCommand, Sendable, Equatable {
    /// The option that deletes a bank.
    public static let deleteOption = "--delete"

    /// The row to delete first, as the screen numbers it; nil to only show the list.
    public var rowToDelete: RowNumber?

    /// Reads the command.
    ///
    /// - Parameter arguments: The command line, parsed with ``deleteOption`` as a value option.
    /// - Throws: ``ToolError/usage(_:)`` for a word (the tool takes none), or a `--delete` value
    ///   that is not a row number from 1.
    public init(arguments: ToolArguments) throws(ToolError) {
        if let extra = arguments.words.first {
            throw .usage("unexpected argument '\(extra)'")
        }
        rowToDelete = try arguments.value(of: Self.deleteOption).map(Self.row)
    }

    /// A row number as the screen shows it, from 1.
    private static func row(_ text: String) throws(ToolError) -> RowNumber {
        guard let number = Int(text), number >= 1 else {
            throw .usage("\(deleteOption) takes a row number from 1, not '\(text)'")
        }
        return RowNumber(number)
    }
}
