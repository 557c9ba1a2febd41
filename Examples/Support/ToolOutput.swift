import Foundation

/// Where an example tool writes: the process's standard output and standard error, or a test's
/// buffers.
///
/// ```swift
/// let output = ToolOutput.standard
/// output.print("+ milk")
/// output.printError("done: there is no item 4")
/// ```
public struct ToolOutput: Sendable {
    /// Writes one line of the tool's normal output.
    public var print: @Sendable (String) -> Void
    /// Writes one line of an error message.
    public var printError: @Sendable (String) -> Void

    /// An output that hands each line to the given functions.
    ///
    /// - Parameters:
    ///   - print: Receives the lines of normal output, without their newline.
    ///   - printError: Receives the lines of error messages, without their newline.
    public init(print: @escaping @Sendable (String) -> Void, printError: @escaping @Sendable (String) -> Void) {
        self.print = print
        self.printError = printError
    }

    /// The process's standard output and standard error.
    public static var standard: ToolOutput {
        ToolOutput(print: { Swift.print($0) }, printError: { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        })
    }
}
