import Testing

/// One finished run of an example tool's executable, as a user's shell would see it.
struct ToolRun: CustomStringConvertible {
    /// The tool's name, which starts its error messages.
    var tool: String
    /// The command line after the name.
    var arguments: [String]
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The lines of standard output.
    var lines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// The status of a command line the tool cannot understand: the argument parser's
    /// validation failure, `EX_USAGE`.
    static let usageStatus: Int32 = 64

    /// What the tool said went wrong: standard error's first line after the argument parser's
    /// `Error: `, or nil when it does not start that way.
    var errorMessage: String? {
        let prefix = "Error: "
        let firstLine = standardError.prefix { $0 != "\n" }
        return firstLine.hasPrefix(prefix) ? String(firstLine.dropFirst(prefix.count)) : nil
    }

    var description: String { "\(tool) \(arguments): status \(status)\nstdout:\n\(standardOutput)stderr:\n\(standardError)" }

    /// Checks the run was refused the way every example tool refuses: this exit status, nothing
    /// on standard output, `Error: <message>` on standard error with `message` in it, and the
    /// usage after it for a bad command line (status 64) only.
    func expectRefused(status: Int32, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status && standardOutput.isEmpty && errorMessage?.contains(message) == true,
                "should fail with status \(status) saying \(message.debugDescription): \(self)", sourceLocation: sourceLocation)
        #expect(standardError.contains("Usage: \(tool)") == (status == Self.usageStatus),
                "the usage follows a bad command line only: \(self)", sourceLocation: sourceLocation)
    }
}
