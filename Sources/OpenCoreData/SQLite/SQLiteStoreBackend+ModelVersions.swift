package import Foundation

/// Which model may migrate a store: only a later version of the model that made it.
///
/// Core Data migrates a store only from a source model it finds among the app's model versions
/// (by the version hashes the store records), so another program, which does not have the app's
/// model, cannot change the app's store. Here the store records its whole schema, so any model
/// could migrate it: the model's name (a container's name, by default) stands for the set of
/// versions. A store migrates automatically for a model of the name it records (a store made
/// before names existed records none, and takes the first), when the schema difference is
/// additive, and when migration and inference are allowed; a model of another name only when
/// ``PersistentStoreDescription/shouldMigrateStoreOfAnotherModel`` says so. Every refusal names
/// both models and says why. The rule is every store's: the PostgreSQL store, in its own module,
/// conforms to ``ModelVersionChecking`` too.
package protocol ModelVersionChecking {
    /// The description the store was loaded with: its migration options.
    var description: PersistentStoreDescription { get }
    /// The URL the store's errors name (a server store's without its password).
    var errorURL: URL? { get }
}

extension SQLiteStoreBackend: ModelVersionChecking {
    var errorURL: URL? { url }
}

extension ModelVersionChecking {
    /// The migration from the store's schema to the opening model's, if it is allowed.
    ///
    /// - Throws: ``PersistentStoreError/incompatibleModel`` for another model, a model earlier
    ///   than the store's (the store's schema migrates to it, not the other way), differences no
    ///   migration can make, or migration or inference turned off.
    package func permittedMigration(from made: ModelVersion, schema stored: ModelSchema, to current: ModelSchema,
                            opening: ModelVersion) throws -> SchemaMigration {
        let migration = SchemaMigration(from: stored, to: current)
        if let name = made.name, name != opening.name, !description.shouldMigrateStoreOfAnotherModel {
            throw incompatible(migration, made: made, opening: opening, reason: """
                \(opening.name.map { "'\($0)'" } ?? "an unnamed model") is another model than '\(name)', whose later versions alone \
                migrate its stores; if it is one, give it that name (ManagedObjectModel.name, or the container's name), or set \
                PersistentStoreDescription.shouldMigrateStoreOfAnotherModel (MigrateStoreOfAnotherModelOption) to migrate the \
                store anyway, after which '\(name)' may no longer open it
                """)
        }
        guard migration.incompatibilities.isEmpty else {
            let isEarlier = SchemaMigration(from: current, to: stored).incompatibilities.isEmpty
            throw incompatible(migration, made: made, opening: opening, reason: isEarlier
                ? "the store was made by a later version of the model than the one opening it; open it with that version or a later one"
                : nil)
        }
        guard description.shouldMigrateStoreAutomatically else {
            throw incompatible(migration, made: made, opening: opening,
                               reason: "automatic migration is turned off (shouldMigrateStoreAutomatically, MigratePersistentStoresAutomaticallyOption)")
        }
        guard description.shouldInferMappingModelAutomatically else {
            throw incompatible(migration, made: made, opening: opening,
                               reason: "inferring the mapping is turned off (shouldInferMappingModelAutomatically, InferMappingModelAutomaticallyOption), and there are no mapping models")
        }
        return migration
    }

    /// The refusal: both models, why, and every difference (the changes a migration would make
    /// when there is no difference it cannot make).
    package func incompatible(_ migration: SchemaMigration, made: ModelVersion, opening: ModelVersion, reason: String?) -> PersistentStoreError {
        let differences = migration.incompatibilities.isEmpty ? migration.steps.map { "\($0)" } : migration.incompatibilities
        var lines = ["the store was made by \(made) and cannot be migrated automatically to \(opening):"]
        lines += differences.map { "  - \($0)" }
        if let reason { lines.append("  - \(reason)") }
        return PersistentStoreError(PersistentStoreError.incompatibleModel, lines.joined(separator: "\n"), url: errorURL)
    }
}
