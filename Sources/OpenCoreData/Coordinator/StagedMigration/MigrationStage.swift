/// One stage of a ``StagedMigrationManager``'s sequence: Core Data's `NSMigrationStage`. Use
/// ``LightweightMigrationStage`` or ``CustomMigrationStage``.
public class MigrationStage: @unchecked Sendable {
    /// A name for logs and errors.
    public var label: String?

    init() {}
}

/// Stages that need no code: the store migrates from each listed version to the next as a
/// lightweight migration infers it. Core Data's `NSLightweightMigrationStage`.
///
/// ```swift
/// let toV2 = LightweightMigrationStage([v1Checksum, v2Checksum])
/// ```
///
/// The library's lightweight migration starts from what the store records of its own layout, so
/// a version listed here needs no model: a version whose model no stage references (and which is
/// not the coordinator's) is passed through, and the store migrates straight to the next version
/// that has one.
public final class LightweightMigrationStage: MigrationStage, @unchecked Sendable {
    /// The versions, oldest first, by ``ManagedObjectModel/versionChecksum``.
    public let versionChecksums: [String]

    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
    }
}

/// A stage with code of yours around a lightweight migration from one version to the next:
/// Core Data's `NSCustomMigrationStage`.
///
/// ```swift
/// let split = CustomMigrationStage(migratingFrom: v2, to: v3)
/// split.willMigrateHandler = { manager, _ in
///     // The store is at V2: keep what V3 drops where V3 can read it.
///     guard let context = manager.container?.newBackgroundContext() else { return }
///     try context.performAndWait {
///         for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
///             book.setValue((book.value(forKey: "title") as? String)?.lowercased(), forKey: "sortTitle")
///         }
///         try context.save()
///     }
/// }
/// ```
///
/// `willMigrateHandler` runs with the store at ``currentModel`` (migrated to it first, if an
/// earlier stage left it before), `didMigrateHandler` after the store has migrated to
/// ``nextModel``; in each, the manager's ``StagedMigrationManager/container`` is a container of
/// that model on the store. What a handler saves is committed before the migration goes on: a
/// handler that throws stops the migration there, the error comes out of loading, and the store
/// stays at the version it has reached; the next load goes on from there. Write handlers that
/// can run again.
public final class CustomMigrationStage: MigrationStage, @unchecked Sendable {
    /// The handlers' signature: the manager running the migration, and this stage.
    public typealias Handler = (_ manager: StagedMigrationManager, _ stage: CustomMigrationStage) throws -> Void

    /// The version the stage migrates from.
    public let currentModel: ManagedObjectModelReference
    /// The version it migrates to.
    public let nextModel: ManagedObjectModelReference
    /// Runs before the migration, on the store at ``currentModel``.
    public var willMigrateHandler: Handler?
    /// Runs after it, on the store at ``nextModel``.
    public var didMigrateHandler: Handler?

    public init(migratingFrom currentModel: ManagedObjectModelReference, to nextModel: ManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }
}
