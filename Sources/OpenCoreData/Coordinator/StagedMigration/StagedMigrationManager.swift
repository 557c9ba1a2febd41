/// The key of ``PersistentStoreDescription``'s option holding a ``StagedMigrationManager``:
/// Core Data's `NSPersistentStoreStagedMigrationManagerOptionKey`.
public let PersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// Migrates a store through versions in stages, some with code of yours, as it loads: Core
/// Data's `NSStagedMigrationManager`.
///
/// ```swift
/// let manager = StagedMigrationManager([
///     LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum]),
///     CustomMigrationStage(migratingFrom: v2Reference, to: v3Reference),
/// ])
/// description.setOption(manager, forKey: PersistentStoreStagedMigrationManagerOptionKey)
/// try container.loadPersistentStores()
/// ```
///
/// Loading finds the version the store records (its ``ManagedObjectModel/versionChecksum``)
/// among the stages' and runs every stage from there on, in order, each with loads of its own,
/// then loads the store with the container's model, which migrates it from the last stage's
/// version if it differs, as any lightweight migration does. A new store, or one already at the
/// container's model, runs no stage; a store at a version no stage names loads as it would
/// without the manager. Each step is one transaction (a process killed midway leaves the store
/// at the version before or after it), so the next load resumes where the last stopped.
public final class StagedMigrationManager: @unchecked Sendable {
    /// The stages, in the order they run.
    public let stages: [MigrationStage]
    /// While a ``CustomMigrationStage``'s handler runs, a container of the stage's model on the
    /// store being migrated; nil otherwise.
    public internal(set) var container: PersistentContainer?

    public init(_ stages: [MigrationStage]) {
        self.stages = stages
    }

    /// One migration from a version to the next, and the stage it belongs to.
    struct Step {
        let from: String
        let to: String
        let stage: MigrationStage
    }

    /// The stages as steps from version to version.
    var steps: [Step] {
        stages.flatMap { stage -> [Step] in
            switch stage {
            case let custom as CustomMigrationStage:
                return [Step(from: custom.currentModel.versionChecksum, to: custom.nextModel.versionChecksum, stage: custom)]
            case let lightweight as LightweightMigrationStage:
                let versions = lightweight.versionChecksums
                return zip(versions, versions.dropFirst()).map { Step(from: $0, to: $1, stage: lightweight) }
            default:
                return []
            }
        }
    }

    /// The model of a version, among those the custom stages reference and `also`.
    func model(withChecksum checksum: String, also model: ManagedObjectModel) -> ManagedObjectModel? {
        for case let custom as CustomMigrationStage in stages {
            for reference in [custom.currentModel, custom.nextModel] where reference.versionChecksum == checksum {
                return reference.resolvedModel
            }
        }
        return model.versionChecksum == checksum ? model : nil
    }
}
