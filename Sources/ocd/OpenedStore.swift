import Foundation
import OpenCoreData

/// A store opened read-only with the model it records: `ocd` never writes to a store, and needs
/// none of the app's classes.
struct OpenedStore {
    let url: URL
    let container: PersistentContainer
    let store: PersistentStore

    /// Opens the store at `path`.
    ///
    /// - Throws: ``ToolError/failure(_:)`` when there is no file, or it is not a store, or it
    ///   cannot be read.
    init(path: String) throws(ToolError) {
        url = URL(fileURLWithPath: path)
        // The library's words for a missing read-only store are about read-only stores.
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .failure("no store at \(url.path): the file does not exist")
        }
        do {
            let model = try ManagedObjectModel(storedIn: url)
            container = PersistentContainer(name: model.name ?? "ocd", managedObjectModel: model)
            let description = PersistentStoreDescription(url: url)
            description.isReadOnly = true
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
        } catch {
            throw .failure("cannot open the store: \(ToolError(error).message)")
        }
        guard let store = container.persistentStoreCoordinator.persistentStores.first else {
            throw .failure("cannot open the store at \(url.path)")
        }
        self.store = store
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
