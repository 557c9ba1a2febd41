import Foundation
public import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif

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
    ///   - location: The store's file, its PostgreSQL URL, or the in-memory store.
    ///   - trace: Records the SQL the store runs, when given (SQLite only).
    /// - Returns: The loaded container.
    /// - Throws: ``ToolError/failure(_:)`` naming the store when the model is invalid or the store
    ///   cannot be opened (not a database, damaged, made by another model, a PostgreSQL URL in a
    ///   build without the `Postgres` trait). Nothing is written to such a store.
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
            case .postgres(let url):
                description = try postgresDescription(url)
            }
            description.logger = trace?.logger()
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            return container
        } catch let error as ToolError {
            throw error
        } catch let error as PersistentStoreError {
            // The message says what is wrong; the path is said once, in front, rather than
            // again in the error's own "(store: …)".
            throw .failure("cannot open the store \(location.displayPath): \(error.message)")
        } catch {
            throw .failure("cannot open the store \(location.displayPath): \(error)")
        }
    }

    private static func postgresDescription(_ url: String) throws -> PersistentStoreDescription {
        #if Postgres
        return try PersistentStoreDescription(postgres: url)
        #else
        // Refused rather than read as a file name: a user who typed a URL meant a server.
        throw ToolError.failure(
            "cannot open the store \(StoreLocation.postgres(url).displayPath): this build has no PostgreSQL store; build the "
                + "examples with the Postgres trait (swift run --package-path Examples --traits Postgres \(name.lowercased()) …)")
        #endif
    }
}
