/// The commands `ocd` runs, and the options each one takes.
enum Command: String, CaseIterable {
    case info, fetch, history, watch, generate

    /// Options followed by a value (`--entity Team`, or `--entity=Team`).
    var valueOptions: Set<String> {
        switch self {
        case .info: []
        case .fetch: ["entity", "predicate", "sort", "limit"]
        case .history: ["after"]
        case .watch: ["entity", "predicate", "sort", "section"]
        case .generate: ["output"]
        }
    }

    /// What the one positional argument is, for the message when it is missing.
    var positionalArgument: String {
        switch self {
        case .generate: "MODEL: the path of an .xcdatamodeld or .xcdatamodel"
        default: "STORE: the path of the store's SQLite file, or its postgres:// URL"
        }
    }

    /// Options that stand alone.
    var flags: Set<String> { ["json"] }

    /// Options the command cannot run without.
    var requiredOptions: [String] {
        switch self {
        case .info, .history: []
        case .fetch: ["entity"]
        case .watch: ["entity", "sort"]
        case .generate: ["output"]
        }
    }
}
