/// A row as the user names it: the number a tool's `list` printed beside it, 1 for the first row.
///
/// ```swift
/// let row = try RowNumber(parsing: "2", command: "delete")
/// row.number  // 2
/// row.index   // 1, the row in the controller's section
/// ```
public struct RowNumber: Sendable, Equatable {
    /// The number as printed, from 1.
    public let number: Int

    /// The row's index in the list, from 0.
    public var index: Int { number - 1 }

    /// A row number as printed by `list`.
    ///
    /// - Parameter number: The number, from 1.
    public init(_ number: Int) {
        precondition(number >= 1, "row numbers start at 1")
        self.number = number
    }

    /// Reads the number a command was given.
    ///
    /// Whether such a row exists is for the list to say: this only checks that the word is a
    /// whole number from 1.
    ///
    /// - Parameters:
    ///   - word: The argument, or nil when the command had none.
    ///   - command: The command's name, for the message.
    /// - Throws: ``ToolError/usage(_:)`` when the word is missing, not a whole number, or below 1.
    public init(parsing word: String?, command: String) throws(ToolError) {
        guard let word else {
            throw .usage("`\(command)` needs a row number from `list`, as in `\(command) 2`")
        }
        guard let number = Int(word) else {
            throw .usage("`\(command)` needs a row number from `list`; \(word.debugDescription) is not a whole number")
        }
        guard number >= 1 else {
            throw .usage("`\(command)` needs a row number from `list`; rows are numbered from 1, not \(number)")
        }
        self.number = number
    }
}
