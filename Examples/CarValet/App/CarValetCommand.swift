public import ExampleSupport
import Foundation

/// One command of the CarValet tool, read from its command line.
///
/// ```swift
/// try CarValetCommand(words: ["add", "Ford", "Model T", "1927"])  // .add(CarDetails(...))
/// try CarValetCommand(words: ["delete", "2"])                     // .delete(RowNumber(2))
/// ```
public enum CarValetCommand: WordsCommand, Sendable, Equatable {
    /// Add a car with these details; what is not given stays unset (the year: 1908).
    case add(CarDetails)
    /// Print the cars, newest first.
    case list
    /// Change a car's details; what is not given stays as it is.
    case edit(RowNumber, CarDetails)
    /// Delete a car.
    case delete(RowNumber)

    /// A car's make, model and year as given on the command line, in that order.
    public struct CarDetails: Sendable, Equatable {
        /// The make, if given.
        public var make: String?
        /// The model, if given.
        public var model: String?
        /// The year, if given.
        public var year: Int16?

        /// Details with these values.
        public init(make: String? = nil, model: String? = nil, year: Int16? = nil) {
            self.make = make
            self.model = model
            self.year = year
        }

        /// Reads up to three words: make, model, year.
        init(words: ArraySlice<String>, command: String) throws(ToolError) {
            guard words.count <= 3 else {
                throw .usage("`\(command)` takes at most a make, a model and a year; quote names with spaces, as in `\(command) Ford \"Model T\" 1927`")
            }
            // A blank name is no name: `add "" Leaf` adds a Leaf of no make.
            let words = words.map { $0.trimmingCharacters(in: .whitespaces) }
            make = words.first.flatMap { $0.isEmpty ? nil : $0 }
            model = words.count > 1 && !words[1].isEmpty ? words[1] : nil
            guard words.count == 3 else { return }
            guard let year = Int16(words[2]), year >= 1 else {
                throw .usage("the year must be a whole number from 1 to \(Int16.max), not \(words[2].debugDescription)")
            }
            self.year = year
        }
    }

    /// Reads a command and its arguments.
    ///
    /// - Parameter words: The command line without the program's name and shared options.
    /// - Throws: ``ToolError/usage(_:)`` for a missing or unknown command, a missing or
    ///   non-numeric row number, a bad year, or extra arguments.
    public init(words: [String]) throws(ToolError) {
        guard let name = words.first else {
            throw .usage("no command given; the commands are add, list, edit and delete")
        }
        let arguments = words.dropFirst()
        switch name {
        case "add":
            self = .add(try CarDetails(words: arguments, command: name))
        case "list":
            guard arguments.isEmpty else { throw .usage("`list` takes no arguments") }
            self = .list
        case "edit":
            let row = try RowNumber(parsing: arguments.first, command: name)
            let details = try CarDetails(words: arguments.dropFirst(), command: name)
            guard details != CarDetails() else {
                throw .usage("`edit` needs a make, and may take a model and a year, as in `edit \(row.number) Ford \"Model T\" 1927`")
            }
            self = .edit(row, details)
        case "delete":
            guard arguments.count <= 1 else { throw .usage("`delete` takes one row number") }
            self = .delete(try RowNumber(parsing: arguments.first, command: name))
        default:
            throw .usage("unknown command \(name.debugDescription); the commands are add, list, edit and delete")
        }
    }
}
