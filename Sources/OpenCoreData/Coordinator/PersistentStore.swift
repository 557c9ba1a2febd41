public import Foundation

/// The store type names Core Data uses (`NSSQLiteStoreType`, `NSInMemoryStoreType`), without the prefix.
public let SQLiteStoreType = "SQLite"
public let InMemoryStoreType = "InMemory"

/// The store option of ``PersistentStoreDescription/shouldMigrateStoreAutomatically``: Core Data's
/// `NSMigratePersistentStoresAutomaticallyOption`, with its value.
public let MigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// The store option of ``PersistentStoreDescription/shouldInferMappingModelAutomatically``: Core
/// Data's `NSInferMappingModelAutomaticallyOption`, with its value.
public let InferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Core Data's `NSPersistentStoreTimeoutOption`: how many seconds the coordinator's whole-store
/// operations (``PersistentStoreCoordinator/destroyPersistentStore(at:type:options:)`` and the
/// others) wait for other connections' locks; 10 by default, as ``PersistentStoreDescription/timeout``.
public let PersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// The store option of ``PersistentStoreDescription/shouldMigrateStoreOfAnotherModel``.
public let MigrateStoreOfAnotherModelOption = "OCDMigrateStoreOfAnotherModelOption"

/// A loaded store: Core Data's `NSPersistentStore`. Create one with
/// ``PersistentStoreCoordinator/addPersistentStore(type:configuration:at:options:)`` or a
/// ``PersistentContainer``.
public final class PersistentStore: @unchecked Sendable, CustomStringConvertible {
    /// Store types, with Core Data's raw values.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An SQLite file: the default, embedded store.
        public static let sqlite = StoreType(rawValue: SQLiteStoreType)
        /// Memory only: gone when the coordinator is.
        public static let inMemory = StoreType(rawValue: InMemoryStoreType)
    }

    /// The store's type.
    public let type: StoreType
    /// The store's file, if it has one; for a PostgreSQL store, its URL without the password.
    public let url: URL?
    /// The store's unique identifier, kept in its metadata; permanent object IDs carry it.
    public let identifier: String
    /// ``identifier`` as the tag its object IDs carry.
    let tag: StoreTag
    /// Whether saves are refused.
    public let isReadOnly: Bool
    /// The model configuration the store holds; always the default one.
    public let configurationName: String = "Default"

    package let backend: any PersistentStoreBackend

    init(type: StoreType, url: URL?, identifier: String, isReadOnly: Bool, backend: any PersistentStoreBackend) {
        self.type = type
        self.url = url
        self.identifier = identifier
        tag = StoreTag(identifier)
        self.isReadOnly = isReadOnly
        self.backend = backend
    }

    public var description: String {
        // A file's path; a server store's URL, which never holds a password.
        "<PersistentStore \(type.rawValue) \(url.map { $0.isFileURL ? $0.path : $0.absoluteString } ?? "(memory)") \(identifier)>"
    }
}
