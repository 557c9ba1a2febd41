public import Foundation

extension ExampleTool {
    /// What `--help` prints, and a usage error after its message: the usage line, the commands,
    /// the options (the tool's, then the shared ones) and the note.
    public static var usage: String {
        var sections = ["usage: \(toolName) [--store PATH] [--sql] \(synopsis)"]
        if !commandSummary.isEmpty { sections.append("commands:\n\(commandSummary)") }
        let sharedOptions = """
              --store PATH   the SQLite store, made on first use (default: \(Store.defaultLocation.displayPath))
              --sql          print each SQL statement to standard error as it runs
              --help         print this text
            """
        sections.append("options:\n" + (optionSummary.isEmpty ? "" : optionSummary + "\n") + sharedOptions)
        if !usageNote.isEmpty { sections.append(usageNote) }
        return sections.joined(separator: "\n\n")
    }

    /// Runs one command line.
    ///
    /// The whole command is read before the store is opened, so a mistyped command line creates
    /// no file (and costs no first-launch import).
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program's name.
    ///   - output: Where to print.
    ///   - now: The clock for creation dates.
    /// - Returns: The exit status: 0; ``ToolError/usageExitCode`` (64) when the command line is
    ///   wrong, with the usage after the message; ``ToolError/failureExitCode`` (1) when the
    ///   command cannot be done (no such row, a store that cannot be opened).
    public static func run(_ arguments: some Sequence<String>, output: ToolOutput = .standard,
                           now: @escaping () -> Date = Date.init) -> Int32 {
        do {
            let arguments = try ToolArguments(parsing: Array(arguments), valueOptions: valueOptions)
            if arguments.wantsHelp {
                output.print(usage)
                return 0
            }
            let command = try Command(arguments: arguments)
            let location = arguments.storeURL.map(StoreLocation.file) ?? Store.defaultLocation
            let trace = arguments.tracesSQL ? SQLTrace { output.printError("sql: " + $0) } : nil
            let container = try Store.open(location, trace: trace)
            try perform(command, in: ToolSession(container: container, location: location, output: output, now: now))
            return 0
        } catch let error as ToolError {
            report(error, to: output)
            return error.exitCode
        } catch {
            report(.failure("\(error)"), to: output)
            return ToolError.failureExitCode
        }
    }

    /// `<tool>: error: <message>`, and the usage after a usage error, on standard error.
    private static func report(_ error: ToolError, to output: ToolOutput) {
        output.printError("\(toolName): error: \(error.message)")
        if error.kind == .usage { output.printError(usage) }
    }
}
