public import Foundation
public import OpenCoreData

/// Where a sample app keeps its objects.
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite file, created on first use with its directory.
    case file(URL)
    /// The in-memory store: gone when the process ends.
    case inMemory

    /// `<data directory>/<app>/<app>.sqlite`, where ``PersistentContainer`` puts a store by
    /// default (`$XDG_DATA_HOME`, or `~/.local/share`).
    public static func defaultFile(forApp name: String) -> StoreLocation {
        .file(PersistentContainer.defaultDirectoryURL().appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(name).sqlite"))
    }

    /// `--store PATH` when given, relative paths from the working directory; the default file
    /// otherwise.
    public static func fromOption(_ path: String?, app name: String) -> StoreLocation {
        guard let path else { return defaultFile(forApp: name) }
        return .file(URL(fileURLWithPath: path))
    }

    /// The file's path, or a label for the in-memory store, for messages.
    public var displayPath: String {
        switch self {
        case .file(let url): url.path
        case .inMemory: "(in memory)"
        }
    }
}

/// A sample app's model and store: adopt it with the app's name and classes, and the model and
/// ``open(_:trace:)`` come with it.
public protocol SampleAppStore {
    /// The app's name: it names the container and the default store file.
    static var name: String { get }
    /// The app's entities, as `@Managed` classes.
    static var managedObjectClasses: [ManagedObject.Type] { get }
}

extension SampleAppStore {
    /// The model of ``managedObjectClasses``.
    public static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(managedObjectClasses: managedObjectClasses)
    }

    /// A container on the app's store, loaded.
    ///
    /// - Parameter trace: Records the SQL the store runs, when given (SQLite only).
    /// - Throws: The errors of ``PersistentContainer/loadPersistentStores()``: a file that is not
    ///   a store, or a store made by another model. Nothing is written to such a file.
    public static func open(_ location: StoreLocation, trace: SQLTrace? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: try model())
        let description: PersistentStoreDescription
        switch location {
        case .file(let url):
            description = PersistentStoreDescription(url: url)
        case .inMemory:
            description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
            description.type = InMemoryStoreType
        }
        description.logger = trace?.logger()
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }
}
