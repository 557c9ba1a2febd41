public import Foundation
public import Logging

/// How to load a store: Core Data's `NSPersistentStoreDescription`.
///
/// ```swift
/// let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/WorldCup.sqlite"))
/// description.type = SQLiteStoreType            // the default; InMemoryStoreType for tests
/// container.persistentStoreDescriptions = [description]
/// try container.loadPersistentStores()
/// ```
public final class PersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    /// The store type: ``SQLiteStoreType`` (the default) or ``InMemoryStoreType``.
    public var type: String = SQLiteStoreType
    /// The store's file. A missing directory is created when the store loads.
    public var url: URL?
    /// Whether the store refuses saves.
    ///
    /// A read-only SQLite store opens where its directory cannot be written, such as a read-only
    /// mount: SQLite's write-ahead log needs an index file beside the store, which it cannot
    /// create there, so a store file alone (every save in it, as an app that quit cleanly leaves
    /// it) is read as immutable, without locking. A store whose log still holds saves (a crash,
    /// or a copy taken while an app ran) cannot be read there and fails to load with
    /// ``PersistentStoreError/cannotOpen``, naming the log; open it once where it can be written.
    public var isReadOnly: Bool = false
    /// Whether a store made by an earlier version of the model is migrated when the differences
    /// allow it (added entities, added optional or defaulted attributes and relationships).
    /// Defaults to true; when false, any difference makes the load fail. The store option
    /// ``MigratePersistentStoresAutomaticallyOption``, as in Core Data.
    public var shouldMigrateStoreAutomatically: Bool {
        get { flag(MigratePersistentStoresAutomaticallyOption, default: true) }
        set { options[MigratePersistentStoresAutomaticallyOption] = newValue }
    }
    /// Whether the migration's mapping is inferred from the two models. This library has no
    /// mapping models: when false, a store that needs migrating fails to load. Defaults to true;
    /// the store option ``InferMappingModelAutomaticallyOption``, as in Core Data.
    public var shouldInferMappingModelAutomatically: Bool {
        get { flag(InferMappingModelAutomaticallyOption, default: true) }
        set { options[InferMappingModelAutomaticallyOption] = newValue }
    }
    /// Whether a store made by another model (another ``ManagedObjectModel/name``) may be
    /// migrated to this one. Defaults to false: a store migrates only for a later version of the
    /// model that made it, as Core Data migrates only from a source model among the app's model
    /// versions, so that another program opening an app's store with a larger model of its own
    /// does not change it under the app (which could then no longer open it). The store option
    /// ``MigrateStoreOfAnotherModelOption``.
    ///
    /// A store made before models had names records none, and migrates for the first named
    /// model that opens it, which names it.
    public var shouldMigrateStoreOfAnotherModel: Bool {
        get { flag(MigrateStoreOfAnotherModelOption, default: false) }
        set { options[MigrateStoreOfAnotherModelOption] = newValue }
    }
    /// Accepted for source compatibility; stores load synchronously.
    public var shouldAddStoreAsynchronously: Bool = false
    /// The model configuration; only the default configuration is supported.
    public var configuration: String?
    /// How long a save waits for another process's transaction to finish, in seconds.
    public var timeout: TimeInterval = 10
    /// Whether the SQL log (trace level, `OpenCoreData.sql`) shows parameter values. Off by default
    /// so that logs do not leak data.
    public var logsSQLParameterValues: Bool = false
    /// Where this store logs: lifecycle at debug level, each SQL statement at trace level. Nil
    /// (the default) uses the `OpenCoreData.store` and `OpenCoreData.sql` loggers.
    public var logger: Logger?
    /// Store options by key, as Core Data keeps them; the migration options are the properties
    /// above.
    public private(set) var options: [String: any Sendable] = [:]

    /// Creates a description for an SQLite store at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Creates a description with no URL; set ``url`` or use ``InMemoryStoreType``.
    public init() {}

    /// Sets a store option.
    public func setOption(_ option: (any Sendable)?, forKey key: String) {
        options[key] = option
    }

    private func flag(_ key: String, default value: Bool) -> Bool {
        switch options[key] {
        case nil: value
        case let flag as Bool: flag
        case let number as NSNumber: number.boolValue
        default: value
        }
    }

    public var description: String {
        "<PersistentStoreDescription \(type) \(url?.path ?? "(no url)")>"
    }
}
