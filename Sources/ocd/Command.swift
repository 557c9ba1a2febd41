/// The commands `ocd` runs, and the options each one takes.
enum Command: String, CaseIterable {
    case info, fetch, history, watch

    /// Options followed by a value (`--entity Team`, or `--entity=Team`).
    var valueOptions: Set<String> {
        switch self {
        case .info: []
        case .fetch: ["entity", "predicate", "sort", "limit"]
        case .history: ["after"]
        case .watch: ["entity", "predicate", "sort", "section"]
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
        }
    }
}
