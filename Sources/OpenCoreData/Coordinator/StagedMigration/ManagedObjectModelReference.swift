public import Foundation

/// A model version a ``CustomMigrationStage`` migrates from or to, with the checksum the store
/// records for it: Core Data's `NSManagedObjectModelReference`.
///
/// ```swift
/// let v2 = ManagedObjectModelReference(model: modelV2, versionChecksum: modelV2.versionChecksum)
/// let v3 = try ManagedObjectModelReference(fileURL: modelsURL.appendingPathComponent("Library 3.xcdatamodel"),
///                                          versionChecksum: "8f3c0a9e51d2b774")
/// ```
///
/// The checksum is ``ManagedObjectModel/versionChecksum``: the library's own, not Core Data's
/// (a store made by Core Data records another). A staged migration checks that the model has
/// the checksum given and throws ``PersistentStoreError/incompatibleModel`` otherwise, so that a
/// reference that names the wrong version is found before anything is migrated.
public final class ManagedObjectModelReference: @unchecked Sendable {
    /// The model.
    public let resolvedModel: ManagedObjectModel
    /// The checksum the store records for it.
    public let versionChecksum: String

    /// A reference to a model in memory.
    public init(model: ManagedObjectModel, versionChecksum: String) {
        resolvedModel = model
        self.versionChecksum = versionChecksum
    }

    /// A reference to a model file: a `.xcdatamodel` version, its `contents`, or an
    /// `.xcdatamodeld` (its current version).
    ///
    /// - Parameters:
    ///   - fileURL: The model file.
    ///   - versionChecksum: The checksum the store records for the model.
    ///   - managedObjectClasses: Classes to bind entities to by `representedClassName`; stage
    ///     handlers usually read and write an old version through `value(forKey:)` and
    ///     `setValue(_:forKey:)`, which need none.
    /// - Throws: ``ModelError`` when the file cannot be read (where Core Data's initializer
    ///   does not throw).
    public convenience init(fileURL: URL, versionChecksum: String, managedObjectClasses: [ManagedObject.Type] = []) throws {
        self.init(model: try ManagedObjectModel(contentsOf: fileURL, managedObjectClasses: managedObjectClasses),
                  versionChecksum: versionChecksum)
    }
}

extension ManagedObjectModel {
    /// A checksum of what the model lays out in a store: its entities, their persistent
    /// properties, types, optionality, relationships and uniqueness constraints, as
    /// ``ManagedObjectModelReference`` and ``LightweightMigrationStage`` name versions by it. Two
    /// models a store cannot tell apart have the same checksum; every store records the
    /// checksum of the model that made or last migrated it.
    ///
    /// Core Data's `versionChecksum` is its own hash: a store made by Core Data, or a checksum
    /// copied from Xcode's build log, does not match. Print this one (or run `ocd info` on a
    /// store) to write it down for a stage. A model that cannot be compiled has a checksum that
    /// matches no store; loading a store with it throws the model's ``ModelError``.
    public var versionChecksum: String {
        do {
            try compile()
            return ModelSchema(model: self).versionHash
        } catch {
            return "invalid model (\(error))"
        }
    }
}
