extension PersistentContainer {
    /// Creates a container for the model file named `name`, as Core Data's
    /// `NSPersistentContainer(name:)` loads `name.momd` from the app's bundle.
    ///
    /// ```swift
    /// let container = PersistentContainer(name: "Library")   // Library.xcdatamodeld
    /// try container.loadPersistentStores()
    /// ```
    ///
    /// The file is `name.xcdatamodeld` (or `name.xcdatamodel`) in the main bundle, or in a
    /// resource bundle beside the executable, which is where SwiftPM puts a target's resources:
    /// declare it with `resources: [.copy("Library.xcdatamodeld")]`. Its current version is
    /// loaded, and each entity gets the class its `representedClassName` names, looked up in the
    /// module that owns the resources, then in the executable's; an entity whose class is not
    /// found has ``ManagedObject`` objects, as in Core Data. To pass the classes yourself, or load
    /// a file from elsewhere, use ``ManagedObjectModel/init(contentsOf:managedObjectClasses:)``
    /// and ``init(name:managedObjectModel:)``.
    ///
    /// As in Core Data, a missing or unusable model file does not stop the program here:
    /// ``loadPersistentStores()`` throws its ``ModelError``.
    public convenience init(name: String) {
        var model: ManagedObjectModel
        var failure: ModelError?
        do {
            model = try ManagedObjectModel(contentsOf: try ModelFileSearch.modelFile(named: name))
        } catch {
            model = ManagedObjectModel()
            failure = error as? ModelError
                ?? ModelError(ModelError.invalidModelFile, "the model \(name) could not be loaded: \(error)")
        }
        self.init(name: name, managedObjectModel: model)
        modelFileError = failure
    }
}
