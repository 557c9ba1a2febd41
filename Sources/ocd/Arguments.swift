/// A command line split into its command, its store, and its options, checked against what the
/// command takes: every problem is a ``ToolError/usage(_:)`` naming it.
struct Arguments {
    let command: Command
    /// The store's path or URL, as given; for `generate`, the model file's path.
    let storePath: String
    private let values: [String: String]
    private let flags: Set<String>

    /// Parses the arguments after the program's name: `COMMAND STORE [--option value | --flag]...`,
    /// options and the store in any order; `--` ends the options.
    init(parsing arguments: [String]) throws(ToolError) {
        guard let name = arguments.first else { throw .usage("missing command") }
        guard let command = Command(rawValue: name) else {
            throw .usage("unknown command '\(name)'; the commands are \(Command.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.command = command
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var positional: [String] = []
        var remaining = arguments.dropFirst()[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            guard !optionsEnded, argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (option, inlineValue) = Self.split(argument)
            if command.flags.contains(option) {
                guard inlineValue == nil else { throw .usage("--\(option) takes no value") }
                flags.insert(option)
            } else if command.valueOptions.contains(option) {
                guard let value = inlineValue ?? remaining.popFirst() else { throw .usage("--\(option) needs a value") }
                guard values[option] == nil else { throw .usage("--\(option) is given twice") }
                values[option] = value
            } else {
                throw .usage("'ocd \(command.rawValue)' has no option --\(option)")
            }
        }
        guard let storePath = positional.first else { throw .usage("missing \(command.positionalArgument)") }
        guard positional.count == 1 else {
            throw .usage("unexpected argument '\(positional[1])' (one \(command.positionalArgument.prefix { $0 != ":" }) only)")
        }
        self.storePath = storePath
        self.values = values
        self.flags = flags
        for option in command.requiredOptions { _ = try required(option) }
    }

    /// `--name=value` as the name and the value; `--name` as the name alone.
    private static func split(_ argument: String) -> (String, String?) {
        let body = argument.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// The value of an option, if given.
    func value(_ option: String) -> String? { values[option] }

    /// The value of an option the command requires.
    func required(_ option: String) throws(ToolError) -> String {
        guard let value = values[option] else { throw .usage("'ocd \(command.rawValue)' needs --\(option)") }
        return value
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option as a positive integer, if given.
    func positiveInteger(_ option: String) throws(ToolError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let number = Int(text), number > 0 else { throw .usage("--\(option) must be a positive integer, not '\(text)'") }
        return number
    }
}
