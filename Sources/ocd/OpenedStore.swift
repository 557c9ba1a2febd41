import Foundation
import OpenCoreData
#if Postgres
import OpenCoreDataPostgres
#endif

/// A store opened read-only with the model it records: `ocd` never writes to a store, and needs
/// none of the app's classes.
struct OpenedStore {
    /// The store's file path, or its URL without the password.
    let displayName: String
    let container: PersistentContainer
    let store: PersistentStore

    /// Opens the store at `path`: an SQLite file, or a `postgres://` URL.
    ///
    /// - Throws: ``ToolError/failure(_:)`` when there is no file, or it is not a store, or it
    ///   cannot be read.
    init(path: String) throws(ToolError) {
        let (model, description) = try Self.recorded(path)
        do {
            container = PersistentContainer(name: model.name ?? "ocd", managedObjectModel: model)
            description.isReadOnly = true
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
        } catch {
            throw .failure("cannot open the store: \(ToolError(error).message)")
        }
        guard let store = container.persistentStoreCoordinator.persistentStores.first else {
            throw .failure("cannot open the store at \(path)")
        }
        self.store = store
        // A PostgreSQL store's URL is shown without its password.
        displayName = (store.type == .sqlite ? store.url?.path : store.url?.absoluteString) ?? path
    }

    /// The model the store at `path` records, and a description of the store.
    private static func recorded(_ path: String) throws(ToolError) -> (ManagedObjectModel, PersistentStoreDescription) {
        let lowercased = path.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            #if Postgres
            do {
                return (try ManagedObjectModel(storedInPostgres: path), try PersistentStoreDescription(postgres: path))
            } catch {
                throw .failure("cannot open the store: \(ToolError(error).message)")
            }
            #else
            throw .failure("this ocd has no PostgreSQL store: build it with the Postgres trait (swift build --traits Postgres)")
            #endif
        }
        let url = URL(fileURLWithPath: path)
        // The library's words for a missing read-only store are about read-only stores.
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .failure("no store at \(url.path): the file does not exist")
        }
        do {
            return (try ManagedObjectModel(storedIn: url), PersistentStoreDescription(url: url))
        } catch {
            throw .failure("cannot open the store: \(ToolError(error).message)")
        }
    }

    var model: ManagedObjectModel { container.managedObjectModel }

    /// The entity named `name`.
    ///
    /// - Throws: ``ToolError/usage(_:)`` naming the store's entities when it has none of that name.
    func entity(named name: String) throws(ToolError) -> EntityDescription {
        guard let entity = model.entitiesByName[name] else {
            let names = model.entities.compactMap(\.name).sorted()
            throw .usage("the store has no entity '\(name)'; its entities are \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
        return entity
    }
}
