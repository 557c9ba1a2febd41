public import Foundation
import OpenCoreData

/// Where an example app keeps its objects.
///
/// ```swift
/// StoreLocation.defaultFile(forApp: "Done").displayPath  // ~/.local/share/Done/Done.sqlite
/// ```
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite file, created on first use with its directory.
    case file(URL)
    /// The in-memory store: gone when the process ends.
    case inMemory

    /// `<data directory>/<app>/<app>.sqlite`, where ``PersistentContainer`` puts a store by
    /// default: under `PersistentContainer.defaultDirectoryURL()` (`$XDG_DATA_HOME`, or
    /// `~/.local/share`), as an app's container does.
    ///
    /// - Parameter name: The app's name, which is its container's.
    public static func defaultFile(forApp name: String) -> StoreLocation {
        .file(PersistentContainer.defaultDirectoryURL().appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(name).sqlite"))
    }

    /// The file's path, or a label for the in-memory store, for messages.
    public var displayPath: String {
        switch self {
        case .file(let url): url.path
        case .inMemory: "(in memory)"
        }
    }
}
