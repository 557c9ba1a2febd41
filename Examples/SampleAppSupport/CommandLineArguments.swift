/// A command line split into options and operands, refusing what a user can get wrong: unknown
/// options, a missing value, an option given twice.
///
/// Options are long (`--store PATH` or `--store=PATH`); `--` ends them, so an operand may start
/// with a dash.
public struct CommandLineArguments: Sendable, Equatable {
    /// The arguments that are not options, in order.
    public private(set) var operands: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` (without the program's name).
    ///
    /// - Parameters:
    ///   - valueOptions: Options that take a value, such as `--store`.
    ///   - flagOptions: Options that stand alone, such as `--sql`.
    /// - Throws: ``UsageError`` naming the first argument that does not fit.
    public init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                operands += remaining
                return
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let option = String(parts[0])
            if flagOptions.contains(option) {
                guard parts.count == 1 else { throw UsageError("\(option) takes no value") }
                guard flags.insert(option).inserted else { throw UsageError("\(option) is given twice") }
            } else if valueOptions.contains(option) {
                let value: String
                if parts.count == 2 {
                    value = String(parts[1])
                } else if let next = remaining.popFirst() {
                    value = next
                } else {
                    throw UsageError("\(option) needs a value")
                }
                guard values.updateValue(value, forKey: option) == nil else { throw UsageError("\(option) is given twice") }
            } else {
                throw UsageError("unknown option '\(option)'")
            }
        }
    }

    /// The value given to an option, if it was given.
    public func value(of option: String) -> String? {
        values[option]
    }

    /// Whether a flag was given.
    public func contains(_ flag: String) -> Bool {
        flags.contains(flag)
    }
}

/// A command line that does not make sense: the program prints the message and its usage and
/// exits with status 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in a phrase.
    public let message: String

    /// An error saying what is wrong.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A request the app understood but cannot carry out (a row that does not exist, a name already
/// taken): the program prints the message and exits with status 1, changing nothing.
public struct SampleAppError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for the user.
    public let message: String

    /// An error with a message for the user.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
