public import ArgumentParser

/// A row as the user names it: the number a tool's `list` printed beside it, 1 for the first row.
///
/// Read it from the command line as an argument's transform, so that a word that is not a row
/// number is refused before the store is opened:
///
/// ```swift
/// @Argument(help: "The item's number, as `list` shows it.", transform: RowNumber.init(argument:))
/// var row: RowNumber
///
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
    /// whole number from 1. A negative number reaches it only after `--`, which ends the options
    /// (`delete -- -1`).
    ///
    /// - Parameter argument: The word on the command line.
    /// - Throws: `ValidationError` when the word is not a whole number, or is below 1; the
    ///   argument parser reports it after the word and the argument's name, with status 64.
    public init(argument: String) throws(ValidationError) {
        guard let number = Int(argument) else {
            throw ValidationError("\(argument.debugDescription) is not a whole number; rows are numbered from 1, as the list shows them")
        }
        guard number >= 1 else {
            throw ValidationError("rows are numbered from 1, not \(number)")
        }
        self.number = number
    }
}
