public import Foundation

/// A command line with the options every example tool shares taken out: `--store PATH`,
/// `--help`, and `--` to end the options.
///
/// ```swift
/// let invocation = try ToolInvocation(parsing: ["--store", "/tmp/todo.sqlite", "add", "milk"])
/// invocation.storeURL  // file:///tmp/todo.sqlite
/// invocation.words     // ["add", "milk"]
/// ```
public struct ToolInvocation: Sendable, Equatable {
    /// The store file from `--store`, or nil for the tool's default location.
    public var storeURL: URL?
    /// The command and its arguments, in order.
    public var words: [String]
    /// Whether `--help`, `-h` or a lone `help` asked for the usage text.
    public var wantsHelp: Bool

    /// Splits a command line (without the program's name) into options and words.
    ///
    /// Options may come before or after the command. After `--` everything is a word, so an
    /// item's text may start with a dash.
    ///
    /// - Throws: ``ToolError/usage(_:)`` for `--store` without a path, a repeated `--store`, or an
    ///   unknown option.
    public init(parsing arguments: [String]) throws(ToolError) {
        storeURL = nil
        words = []
        wantsHelp = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--":
                words += remaining
                remaining = []
            case "--help", "-h":
                wantsHelp = true
            case "--store":
                guard let path = remaining.popFirst(), !path.isEmpty else {
                    throw .usage("--store needs a file path, as in `--store /tmp/list.sqlite`")
                }
                guard storeURL == nil else { throw .usage("--store is given twice") }
                storeURL = URL(fileURLWithPath: path)
            case let option where option.hasPrefix("-") && option.count > 1 && Int(option) == nil:
                throw .usage("unknown option \(option)")
            default:
                words.append(argument)
            }
        }
        if words == ["help"] { wantsHelp = true }
    }
}
