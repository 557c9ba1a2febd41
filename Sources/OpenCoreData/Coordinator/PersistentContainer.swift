public import Foundation

/// The whole stack in one object: Core Data's `NSPersistentContainer`. It holds the model, a
/// coordinator, the store descriptions, a main-queue ``viewContext`` and makes background
/// contexts.
///
/// ```swift
/// let container = PersistentContainer(name: "WorldCup", managedObjectModel: model)
/// try container.loadPersistentStores()
/// let team = Team(context: container.viewContext)
/// team.teamName = "Brazil"
/// try container.viewContext.save()
/// ```
///
/// By default the store is an SQLite file at
/// `defaultDirectoryURL()/<name>/<name>.sqlite`, under the user's data directory.
open class PersistentContainer: @unchecked Sendable {
    /// The container's name; it names the default store file.
    public let name: String
    /// The model.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator connecting the contexts to the store.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The stores to load; one SQLite store in the default location unless changed before
    /// ``loadPersistentStores()``.
    public var persistentStoreDescriptions: [PersistentStoreDescription]
    /// The main-queue context for UI code. Use it on the main queue, or in `performAndWait`.
    public let viewContext: ManagedObjectContext
    /// Why ``init(name:)`` found no usable model file; ``loadPersistentStores()`` throws it.
    var modelFileError: ModelError?

    /// Creates a container for a model.
    ///
    /// - Parameters:
    ///   - name: The container's name, used for the default store file, and the model's
    ///     ``ManagedObjectModel/name`` when it has none.
    ///   - model: The model of the store's objects.
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        model.adoptName(name)
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let storeURL = Self.defaultDirectoryURL().appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(name).sqlite")
        self.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        self.viewContext = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        viewContext.name = "viewContext"
        viewContext.persistentStoreCoordinator = persistentStoreCoordinator
    }

    /// Creates a container whose model comes from `@Managed` subclasses.
    ///
    /// - Throws: ``ModelError`` when a class cannot become an entity.
    public convenience init(name: String, managedObjectClasses: [ManagedObject.Type]) throws {
        self.init(name: name, managedObjectModel: try ManagedObjectModel(managedObjectClasses: managedObjectClasses))
    }

    /// The directory default stores go in: `$XDG_DATA_HOME`, or `~/.local/share` (Core Data's
    /// Application Support directory on Apple platforms).
    open class func defaultDirectoryURL() -> URL {
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            return URL(fileURLWithPath: dataHome, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }

    /// Loads every store description.
    ///
    /// - Throws: ``ModelError`` if the model is invalid, or ``init(name:)`` found no usable model file; ``PersistentStoreError`` if a store cannot be
    ///   opened, is not a database, is damaged, or was made by an incompatible model (the message
    ///   lists the differences). Nothing in an existing store is changed when loading fails.
    public func loadPersistentStores() throws {
        if let modelFileError { throw modelFileError }
        for description in persistentStoreDescriptions {
            try persistentStoreCoordinator.addPersistentStore(with: description)
        }
    }

    /// Loads every store description, calling `block` once per description with its outcome
    /// (synchronously, before returning), as Core Data does.
    public func loadPersistentStores(completionHandler block: (PersistentStoreDescription, (any Error)?) -> Void) {
        if let modelFileError {
            for description in persistentStoreDescriptions { block(description, modelFileError) }
            return
        }
        for description in persistentStoreDescriptions {
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// A new private-queue context on the coordinator. Use it inside `perform` blocks.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new background context's queue.
    ///
    /// ```swift
    /// container.performBackgroundTask { context in
    ///     Team(context: context).teamName = "Brazil"
    ///     try? context.save()
    /// }
    /// ```
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
