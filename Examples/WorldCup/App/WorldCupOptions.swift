public import ExampleSupport
import Foundation

/// The command line of `worldcup`.
///
/// ```
/// worldcup [--host ADDRESS] [--port N] [--store PATH] [--simulate] [--reset] [--check]
/// ```
public struct WorldCupOptions: Equatable, Sendable {
    /// The address to bind: loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// The port to listen on.
    public var port = 8080
    /// The SQLite store; created and seeded on first launch.
    public var store = WorldCupStore.defaultLocation
    /// Whether a background context keeps adding wins.
    public var simulate = false
    /// Whether to delete the store first, to start from the seed again.
    public var reset = false
    /// Whether to start, answer one request of each kind on a free port, and exit.
    public var check = false
    /// Whether to print the usage and exit.
    public var help = false

    /// The usage text.
    public static let usage = """
        usage: worldcup [--host ADDRESS] [--port N] [--store PATH] [--simulate] [--reset] [--check]

          --host ADDRESS  address to bind (default 127.0.0.1: this machine only)
          --port N        port to listen on (default 8080)
          --store PATH    SQLite store (default \(WorldCupStore.defaultLocation.displayPath))
          --simulate      keep adding wins from a background context, to watch live updates
          --reset         delete the store first and start again from the seed
          --check         start on a free port, request the page and the API once, and exit
        """

    /// Default options.
    public init() {}

    /// Reads the arguments (without the program name).
    ///
    /// - Throws: `ToolError.usage` naming the argument that is wrong.
    public init(arguments: [String]) throws(ToolError) {
        var remaining = arguments[...]
        func value(for option: String) throws(ToolError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw .usage("\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--host": host = try value(for: argument)
            case "--port":
                let text = try value(for: argument)
                guard let number = Int(text), (0...65535).contains(number) else { throw .usage("--port needs a number from 0 to 65535, not \(text)") }
                port = number
            case "--store": store = .file(URL(fileURLWithPath: try value(for: argument)))
            case "--simulate": simulate = true
            case "--reset": reset = true
            case "--check": check = true
            case "--help", "-h": help = true
            default: throw .usage("unknown option '\(argument)'")
            }
        }
    }
}
