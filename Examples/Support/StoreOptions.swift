public import ArgumentParser
public import Foundation

/// The options every example tool shares, `--store PATH|URL` and `--sql`, and the store they open.
///
/// Declare them in the tool's command and in each of its subcommands: the argument parser then
/// takes them before or after the subcommand's name (`done --store todo.sqlite list`,
/// `done list --store todo.sqlite`).
///
/// ```swift
/// struct List: ParsableCommand {
///     @OptionGroup var storage: StoreOptions<DoneStore>
///     func run() throws {
///         let session = try storage.openSession()  // ~/.local/share/Done/Done.sqlite by default
///     }
/// }
/// ```
public struct StoreOptions<Store: ExampleStore>: ParsableArguments {
    /// The store `--store` names: an SQLite file relative to the working directory, or a
    /// `postgres://` URL; nil for the app's default location.
    @Option(help: ArgumentHelp("""
        The SQLite file, or a postgres:// URL (a build with --traits Postgres), made on first use \
        (default: \(Store.defaultLocation.displayPath)).
        """, valueName: "path|url"))
    public var store: String?

    /// Whether `--sql` asked to print each SQL statement as it runs.
    @Flag(help: "Print each SQL statement to standard error as it runs.")
    public var sql = false

    /// The defaults: the app's own store, no SQL printed.
    public init() {}

    /// Where the store is: what `--store` names, or the app's default location.
    public var location: StoreLocation {
        store.map(StoreLocation.init(argument:)) ?? Store.defaultLocation
    }

    /// Opens the store, with the SQL trace `--sql` asks for, and a context for one command.
    ///
    /// Call it from the command's `run()`: the argument parser has read and checked the whole
    /// command line by then, so a mistyped command line creates no file (and costs no
    /// first-launch import).
    ///
    /// - Parameters:
    ///   - output: Where the command prints, and where `--sql` echoes each statement (`sql: …`
    ///     on standard error).
    ///   - now: The clock for creation dates.
    /// - Returns: The session the command runs in.
    /// - Throws: ``ToolError/failure(_:)`` naming the store when it cannot be opened.
    public func openSession(output: ToolOutput = .standard, now: @escaping () -> Date = Date.init) throws(ToolError) -> ToolSession {
        let trace = sql ? SQLTrace { output.printError("sql: " + $0) } : nil
        let container = try Store.open(location, trace: trace)
        return ToolSession(container: container, location: location, output: output, now: now)
    }
}
