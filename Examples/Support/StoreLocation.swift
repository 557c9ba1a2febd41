public import Foundation
import OpenCoreData

/// Where an example app keeps its objects.
///
/// ```swift
/// StoreLocation.defaultFile(forApp: "Done").displayPath  // ~/.local/share/Done/Done.sqlite
/// StoreLocation(argument: "postgres://app@db.local/cup")  // .postgres(…)
/// ```
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite file, created on first use with its directory.
    case file(URL)
    /// The in-memory store: gone when the process ends.
    case inMemory
    /// A PostgreSQL store, by its URL (`postgres://user:password@host:port/database?…`): its
    /// tables are created on first use. Opened only by a build with the `Postgres` trait.
    case postgres(String)

    /// What a `--store` argument names: a `postgres://` or `postgresql://` URL, or else a file
    /// path, relative to the working directory.
    ///
    /// - Parameter argument: The argument as typed.
    public init(argument: String) {
        let lowercased = argument.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            self = .postgres(argument)
        } else {
            self = .file(URL(fileURLWithPath: argument))
        }
    }

    /// `<data directory>/<app>/<app>.sqlite`, where ``PersistentContainer`` puts a store by
    /// default: under `PersistentContainer.defaultDirectoryURL()` (`$XDG_DATA_HOME`, or
    /// `~/.local/share`), as an app's container does.
    ///
    /// - Parameter name: The app's name, which is its container's.
    public static func defaultFile(forApp name: String) -> StoreLocation {
        .file(PersistentContainer.defaultDirectoryURL().appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(name).sqlite"))
    }

    /// The file's path, the URL without its password, or a label for the in-memory store, for
    /// messages.
    public var displayPath: String {
        switch self {
        case .file(let url): url.path
        case .inMemory: "(in memory)"
        case .postgres(let url): Self.withoutPassword(url)
        }
    }

    private static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(a PostgreSQL URL)" }
        if components.password != nil { components.password = "…" }
        return components.string ?? "(a PostgreSQL URL)"
    }
}
