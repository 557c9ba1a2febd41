public import Foundation
public import OpenCoreData

/// Opens an example app's SQLite store: in the user's data directory by default, as an app's
/// container does, or in a file a tool's `--store` option names.
///
/// ```swift
/// let container = try ExampleStore.open(name: "Done", managedObjectClasses: [Item.self], at: nil)
/// // ~/.local/share/Done/Done.sqlite
/// ```
public enum ExampleStore {
    /// Where the store of the container `name` lives when no file is named: under
    /// `PersistentContainer.defaultDirectoryURL()` (`$XDG_DATA_HOME` or `~/.local/share`).
    ///
    /// - Parameter name: The container's name.
    /// - Returns: `<data directory>/<name>/<name>.sqlite`.
    public static func defaultURL(name: String) -> URL {
        PersistentContainer.defaultDirectoryURL().appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(name).sqlite")
    }

    /// A container with its store loaded, its directory made if needed.
    ///
    /// - Parameters:
    ///   - name: The container's name, which names the default store file.
    ///   - managedObjectClasses: The classes the model is made of.
    ///   - url: The store file, or nil for ``defaultURL(name:)``.
    /// - Returns: The loaded container.
    /// - Throws: ``ToolError/failure(_:)`` naming the file when the model is invalid or the store
    ///   cannot be opened (not a database, damaged, made by another model). Nothing in the file is
    ///   changed then.
    public static func open(name: String, managedObjectClasses: [ManagedObject.Type], at url: URL?) throws(ToolError)
        -> PersistentContainer {
        let storeURL = url ?? defaultURL(name: name)
        do {
            let container = try PersistentContainer(name: name, managedObjectClasses: managedObjectClasses)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
            try container.loadPersistentStores()
            return container
        } catch {
            throw .failure("cannot open the store \(storeURL.path): \(error)")
        }
    }
}
