public import ArgumentParser
public import ExampleSupport
import Foundation

/// The command line of `worldcup`.
///
/// ```
/// worldcup [--host <address>] [--port <n>] [--store <path|url>] [--timeout <seconds>] [--simulate] [--reset] [--check]
/// ```
public struct WorldCupOptions: ParsableArguments, Sendable {
    /// The address to bind: loopback unless told otherwise.
    @Option(help: ArgumentHelp("The address to bind (default: 127.0.0.1, this machine only).", valueName: "address"))
    public var host = "127.0.0.1"

    /// The port to listen on.
    @Option(help: ArgumentHelp("The port to listen on, from 0 to 65535.", valueName: "n"))
    public var port = 8080

    /// The store: an SQLite file or a `postgres://` URL; nil for the default location.
    @Option(name: .customLong("store"),
            help: ArgumentHelp("""
                The SQLite file, or a postgres:// URL (a build with --traits Postgres), created and seeded on first \
                launch (default: \(WorldCupStore.defaultLocation.displayPath)).
                """, valueName: "path|url"))
    public var storePath: String?

    /// How long a connection may take to send a request, or stay idle between requests.
    @Option(help: ArgumentHelp("Close a connection that sends no request within this many seconds, or stays idle as long between requests (default: 30).",
                               valueName: "seconds"))
    public var timeout: Double = 30

    /// Whether a background context keeps adding wins.
    @Flag(help: "Keep adding wins from a background context, to watch live updates.")
    public var simulate = false

    /// Whether to delete the store first, to start from the seed again.
    @Flag(help: "Delete the store (a PostgreSQL store's teams) first and start again from the seed (stop the other servers on it first).")
    public var reset = false

    /// Whether to start, answer one request of each kind on a free port, and exit.
    @Flag(help: "Start on a free port, request the page and the API once, and exit.")
    public var check = false

    /// The defaults: loopback, port 8080, the default store.
    public init() {}

    /// The store: what `--store` names, or `~/.local/share/WorldCup/WorldCup.sqlite`.
    public var store: StoreLocation {
        storePath.map(StoreLocation.init(argument:)) ?? WorldCupStore.defaultLocation
    }

    /// The connection limits: ``timeout`` for both timeouts, and as many connections as the
    /// process's descriptor limit allows.
    public var limits: ConnectionLimits {
        ConnectionLimits(requestTimeout: .milliseconds(Int64(timeout * 1000)), idleTimeout: .milliseconds(Int64(timeout * 1000)))
    }

    /// Refuses a port out of range, or a timeout that is not a positive number of seconds,
    /// before anything is opened.
    public func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port needs a number from 0 to 65535, not \(port)")
        }
        guard timeout > 0, timeout <= 86400 else {
            throw ValidationError("--timeout needs a number of seconds above 0 and at most 86400, not \(timeout)")
        }
    }
}
