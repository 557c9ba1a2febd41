/// Running a ``StagedMigrationManager`` as a store loads: each step is a load of the store with
/// the step's model, which migrates it (lightweight, one transaction), with the custom stages'
/// handlers around it; then ``PersistentStoreCoordinator/addPersistentStore(with:)`` loads it
/// with the coordinator's model as always.
extension PersistentStoreCoordinator {
    func runStagedMigration(of description: PersistentStoreDescription) throws {
        guard let manager = description.options[PersistentStoreStagedMigrationManagerOptionKey] as? StagedMigrationManager else {
            if description.options[PersistentStoreStagedMigrationManagerOptionKey] != nil {
                throw PersistentStoreError(PersistentStoreError.unsupportedConfiguration, "the option \(PersistentStoreStagedMigrationManagerOptionKey) holds no StagedMigrationManager")
            }
            return
        }
        let target = managedObjectModel.versionChecksum
        let probe = try Self.makeBackend(for: description)
        let recorded: String?
        do {
            recorded = try probe.recordedModelChecksum()
            probe.close()
        } catch {
            probe.close()
            throw error
        }
        guard var current = recorded else { return }
        let steps = manager.steps
        try checkReferences(of: manager)
        // Every step from the store's version on, each version once: stages cannot loop.
        var visited: Set<String> = [current]
        while current != target, let step = steps.first(where: { $0.from == current }) {
            switch step.stage {
            case let custom as CustomMigrationStage:
                try withStageContainer(custom.currentModel.resolvedModel, description, manager) {
                    try custom.willMigrateHandler?(manager, custom)
                }
                try withStageContainer(custom.nextModel.resolvedModel, description, manager) {
                    try custom.didMigrateHandler?(manager, custom)
                }
            default:
                // A version without a model is passed through: the next load migrates from what
                // the store records.
                if let model = manager.model(withChecksum: step.to, also: managedObjectModel), model !== managedObjectModel {
                    try withStageContainer(model, description, manager) {}
                }
            }
            current = step.to
            guard visited.insert(current).inserted else {
                throw PersistentStoreError(PersistentStoreError.incompatibleModel, "the staged migration's stages return to version \(current) (\(step.stage.label ?? "unlabelled stage")); each version may be left once")
            }
        }
    }

    /// Refuses references whose model does not have the checksum they give.
    private func checkReferences(of manager: StagedMigrationManager) throws {
        for case let custom as CustomMigrationStage in manager.stages {
            for reference in [custom.currentModel, custom.nextModel] where reference.resolvedModel.versionChecksum != reference.versionChecksum {
                throw PersistentStoreError(PersistentStoreError.incompatibleModel, "the custom migration stage \(custom.label.map { "'\($0)' " } ?? "")references a model with checksum \(reference.versionChecksum), but the model's checksum is \(reference.resolvedModel.versionChecksum)")
            }
        }
    }

    /// Loads the store with `model` (migrating it there if it is not), runs `body` with the
    /// manager's container set to it, and closes the store.
    private func withStageContainer(_ model: ManagedObjectModel, _ description: PersistentStoreDescription,
                                    _ manager: StagedMigrationManager, _ body: () throws -> Void) throws {
        // A version of the coordinator's model: named as it is, unless it has a name of its own.
        model.adoptName(managedObjectModel.name)
        let container = PersistentContainer(name: managedObjectModel.name ?? "StagedMigration", managedObjectModel: model)
        let stageDescription = PersistentStoreDescription()
        stageDescription.type = description.type
        stageDescription.url = description.url
        for (key, value) in description.options where key != PersistentStoreStagedMigrationManagerOptionKey {
            stageDescription.setOption(value, forKey: key)
        }
        stageDescription.shouldMigrateStoreAutomatically = true
        stageDescription.shouldInferMappingModelAutomatically = true
        stageDescription.timeout = description.timeout
        stageDescription.logger = description.logger
        container.persistentStoreDescriptions = [stageDescription]
        try container.loadPersistentStores()
        defer {
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        manager.container = container
        defer { manager.container = nil }
        try body()
    }
}
