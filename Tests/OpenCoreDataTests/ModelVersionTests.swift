import Foundation
import GRDB
import OpenCoreData
import Testing

/// Which model may migrate a store: only a later version of the model that made it, as Core Data
/// migrates only from a source model it finds among the app's model versions. A model's name (a
/// container's name, by default) tells versions of one model from other models; the store
/// records it with the model's version identifiers and hash, and errors name both models.
@Suite struct ModelVersionTests {
    /// The library model with version identifiers.
    private static func library(_ changes: Set<LibraryChange> = [], version: String) -> ManagedObjectModel {
        let model = libraryModel(changes)
        model.versionIdentifiers = [version]
        return model
    }

    /// The case: another program opens the app's store with a larger model of its own.
    /// The store is left as it was, and the app still opens it.
    @Test func anotherModelDoesNotMigrateTheStore() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: Self.library(version: "1")))
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]), name: "Catalogue")
        }
        #expect(error?.code == PersistentStoreError.incompatibleModel)
        for fragment in ["'Library'", "version 1", "'Catalogue'", "shouldMigrateStoreOfAnotherModel"] {
            #expect(error?.message.contains(fragment) == true, "message lacks '\(fragment)': \(String(describing: error))")
        }
        #expect(try libraryContents(try openLibrary(in: directory, model: Self.library(version: "1"))) == seededContents)
    }

    /// Told to, it migrates; the app, whose model is now older than the store's, is refused with
    /// an error naming both models.
    @Test func anotherModelMigratesTheStoreWhenToldTo() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: Self.library(version: "1")))
        let other = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]), name: "Catalogue") {
            $0.shouldMigrateStoreOfAnotherModel = true
        }
        #expect(try libraryContents(other) == seededContents)
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: Self.library(version: "1"))
        }
        for fragment in ["'Catalogue'", "'Library'", "entity Shelf"] {
            #expect(error?.message.contains(fragment) == true, "message lacks '\(fragment)': \(String(describing: error))")
        }
    }

    /// A later version of the same model migrates, as before; an earlier one is then refused
    /// with an error saying the store was made by a later version, naming both.
    @Test func aLaterVersionMigratesAndAnEarlierOneIsRefused() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: Self.library(version: "1")))
        let migrated = try openLibrary(in: directory, model: Self.library([.addSubtitle, .addShelfEntity], version: "2"))
        #expect(try libraryContents(migrated) == seededContents)
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: Self.library(version: "1"))
        }
        #expect(error?.code == PersistentStoreError.incompatibleModel)
        for fragment in ["later version", "'Library' version 2", "'Library' version 1", "entity Shelf"] {
            #expect(error?.message.contains(fragment) == true, "message lacks '\(fragment)': \(String(describing: error))")
        }
        #expect(try libraryContents(try openLibrary(in: directory, model: Self.library([.addSubtitle, .addShelfEntity], version: "2"))) == seededContents)
    }

    /// A coordinator used without a container has an unnamed model unless the model has a name:
    /// it cannot migrate a named store unless told to, through the store options as Core Data
    /// takes them.
    @Test func aCoordinatorsOptionsDecideAsInCoreData() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let url = directory.file("Library.sqlite")
        func add(_ model: ManagedObjectModel, _ options: [String: any Sendable]?) throws {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
            try coordinator.remove(store)
        }
        let migrate: [String: any Sendable] = [MigratePersistentStoresAutomaticallyOption: true, InferMappingModelAutomaticallyOption: true]
        // An unnamed model is another model than 'Library'.
        let unnamed = #expect(throws: PersistentStoreError.self) { try add(libraryModel([.addSubtitle]), migrate) }
        #expect(unnamed?.message.contains("unnamed") == true, "\(String(describing: unnamed))")
        // Named 'Library', it is a later version; but without the options, Core Data does not migrate.
        let named = libraryModel([.addSubtitle])
        named.name = "Library"
        let withoutOptions = #expect(throws: PersistentStoreError.self) { try add(named, nil) }
        #expect(withoutOptions?.message.contains("MigratePersistentStoresAutomaticallyOption") == true, "\(String(describing: withoutOptions))")
        let named2 = libraryModel([.addSubtitle])
        named2.name = "Library"
        try add(named2, migrate)
        // The other model's store migrates with the option that allows it.
        try add(libraryModel([.addSubtitle, .addShelfEntity]), migrate.merging([MigrateStoreOfAnotherModelOption: true]) { $1 })
    }

    /// Without inference there is no mapping for a lightweight migration (this library has no
    /// mapping models): the store is refused, saying so.
    @Test func inferenceOffRefusesAMigration() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.addSubtitle])) { $0.shouldInferMappingModelAutomatically = false }
        }
        #expect(error?.message.contains("shouldInferMappingModelAutomatically") == true, "\(String(describing: error))")
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel([.addSubtitle]))) == seededContents)
    }

    /// Stores made before models had names record none: the first named model to open one
    /// migrates it as before, and names it.
    @Test func aStoreWithoutAModelNameTakesTheFirstName() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let queue = try DatabaseQueue(path: directory.file("Library.sqlite").path)
        try queue.write { db in try db.execute(sql: "DELETE FROM _ocd_metadata WHERE key IN ('modelName', 'modelVersionIdentifiers')") }
        try queue.close()
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel([.addSubtitle]), name: "Catalogue")) == seededContents)
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.addSubtitle, .addShelfEntity]))
        }
        #expect(error?.message.contains("'Catalogue'") == true, "\(String(describing: error))")
    }

    /// Description properties and store options are one setting, as in Core Data.
    @Test func descriptionPropertiesAreStoreOptions() {
        let description = PersistentStoreDescription()
        #expect(description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically)
        #expect(!description.shouldMigrateStoreOfAnotherModel)
        description.setOption(false, forKey: MigratePersistentStoresAutomaticallyOption)
        description.shouldMigrateStoreOfAnotherModel = true
        #expect(!description.shouldMigrateStoreAutomatically)
        #expect(description.options[MigrateStoreOfAnotherModelOption] as? Bool == true)
    }
}
