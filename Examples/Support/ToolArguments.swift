public import Foundation

/// A command line with the options every example tool shares taken out: `--store PATH`, `--sql`,
/// `--help` (or `-h`, or a lone `help`), and `--` to end the options; a tool may add options of
/// its own that take a value, such as `--delete ROW`.
///
/// Options may come before or after the command, and a value may follow its option or an `=`
/// (`--store PATH`, `--store=PATH`). After `--` everything is a word, so a word may start with a
/// dash; a negative number is a word anyway, for the command to refuse with a better message.
///
/// ```swift
/// let arguments = try ToolArguments(parsing: ["--store", "/tmp/todo.sqlite", "add", "milk"])
/// arguments.storeURL  // file:///tmp/todo.sqlite
/// arguments.words     // ["add", "milk"]
/// ```
public struct ToolArguments: Sendable, Equatable {
    /// The option that names the store file.
    public static let storeOption = "--store"
    /// The option that prints the SQL the store runs.
    public static let sqlOption = "--sql"

    /// The command and its arguments, in order.
    public private(set) var words: [String] = []
    /// Whether `--sql` asked to print each SQL statement as it runs.
    public private(set) var tracesSQL = false
    /// Whether `--help`, `-h` or a lone `help` asked for the usage text.
    public private(set) var wantsHelp = false
    private var values: [String: String] = [:]

    /// Splits a command line (without the program's name) into options and words.
    ///
    /// - Parameters:
    ///   - arguments: The command line.
    ///   - valueOptions: The tool's own options that take a value, besides `--store`.
    /// - Throws: ``ToolError/usage(_:)`` for an unknown option, an option without its value, a
    ///   flag given a value, or an option with a value given twice (which value would win is
    ///   not for the tool to guess).
    public init(parsing arguments: [String], valueOptions: Set<String> = []) throws(ToolError) {
        let valueOptions = valueOptions.union([Self.storeOption])
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                words += remaining
                break
            }
            guard Self.isOption(argument) else {
                words.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let option = String(parts[0])
            let attached = parts.count == 2 ? String(parts[1]) : nil
            if valueOptions.contains(option) {
                guard let value = attached ?? remaining.popFirst(), !value.isEmpty else {
                    throw .usage("\(option) needs a value")
                }
                guard values.updateValue(value, forKey: option) == nil else { throw .usage("\(option) is given twice") }
            } else if [Self.sqlOption, "--help", "-h"].contains(option) {
                guard attached == nil else { throw .usage("\(option) takes no value") }
                if option == Self.sqlOption { tracesSQL = true } else { wantsHelp = true }
            } else {
                throw .usage("unknown option '\(option)'")
            }
        }
        if words == ["help"] { wantsHelp = true }
    }

    /// The store file from `--store`, relative to the working directory, or nil for the tool's
    /// default location.
    public var storeURL: URL? {
        value(of: Self.storeOption).map { URL(fileURLWithPath: $0) }
    }

    /// The value given to one of the tool's own options, if it was given.
    public func value(of option: String) -> String? {
        values[option]
    }

    /// Whether an argument is an option: it starts with a dash, but is not a lone dash (a
    /// common name for standard input) nor a number such as `-1`.
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument.count > 1 && Int(argument) == nil
    }
}
