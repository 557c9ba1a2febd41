import Foundation
public import OpenCoreData

/// An example app's model and store: adopt it with the app's name and classes, and opening the
/// store (in the user's data directory by default, or a file `--store` names) comes with it.
///
/// ```swift
/// enum DoneStore: ExampleStore {
///     static let name = "Done"
///     static let managedObjectClasses: [ManagedObject.Type] = [Item.self]
/// }
/// let container = try DoneStore.open(DoneStore.defaultLocation)  // ~/.local/share/Done/Done.sqlite
/// ```
public protocol ExampleStore {
    /// The app's name: it names the container and the default store file.
    static var name: String { get }
    /// The app's entities, as `@Managed` classes.
    static var managedObjectClasses: [ManagedObject.Type] { get }
}

extension ExampleStore {
    /// `<data directory>/<name>/<name>.sqlite`: see ``StoreLocation/defaultFile(forApp:)``.
    public static var defaultLocation: StoreLocation { .defaultFile(forApp: name) }

    /// A container on the app's store, loaded, its directory made if needed.
    ///
    /// - Parameters:
    ///   - location: The store's file, or the in-memory store.
    ///   - trace: Records the SQL the store runs, when given (SQLite only).
    /// - Returns: The loaded container.
    /// - Throws: ``ToolError/failure(_:)`` naming the store when the model is invalid or the store
    ///   cannot be opened (not a database, damaged, made by another model). Nothing is written to
    ///   such a file.
    public static func open(_ location: StoreLocation, trace: SQLTrace? = nil) throws(ToolError) -> PersistentContainer {
        do {
            let container = try PersistentContainer(name: name, managedObjectClasses: managedObjectClasses)
            let description: PersistentStoreDescription
            switch location {
            case .file(let url):
                description = PersistentStoreDescription(url: url)
            case .inMemory:
                // The in-memory store ignores its URL; a description needs one all the same.
                description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
                description.type = InMemoryStoreType
            }
            description.logger = trace?.logger()
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            return container
        } catch let error as PersistentStoreError {
            // The message says what is wrong; the path is said once, in front, rather than
            // again in the error's own "(store: …)".
            throw .failure("cannot open the store \(location.displayPath): \(error.message)")
        } catch {
            throw .failure("cannot open the store \(location.displayPath): \(error)")
        }
    }
}
