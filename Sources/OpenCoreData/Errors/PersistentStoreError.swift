public import Foundation

/// A store that cannot be opened, read or written: not a database, corrupt, in a directory that
/// cannot be written, made by an incompatible model, or an SQL failure.
///
/// Nothing already saved is lost when one of these is thrown: the library never deletes or
/// rewrites a store to recover from an error.
public struct PersistentStoreError: CoreDataCodedError {
    public let code: CoreDataErrorCode
    /// What went wrong, naming the file, entity or statement involved.
    public let message: String
    /// The store's file, when there is one.
    public let url: URL?
    /// The SQLite result code, for ``sqliteError``.
    public let sqliteCode: Int32?

    public var description: String {
        var text = message
        if let url { text += " (store: \(url.path))" }
        return text
    }

    /// The file exists but is not a database of the store's type.
    public static let invalidStoreFile = CoreDataErrorCode(134000, "invalidStoreFile")
    /// The store could not be opened: a missing or read-only directory, no permission.
    public static let cannotOpen = CoreDataErrorCode(134080, "cannotOpen")
    /// The store was made by a model this one cannot migrate from automatically: another model
    /// (see ``PersistentStoreDescription/shouldMigrateStoreOfAnotherModel``), a later version of
    /// this one, one whose differences no lightweight migration can make, or migration is turned
    /// off. The message names both models and lists the differences.
    public static let incompatibleModel = CoreDataErrorCode(134100, "incompatibleModel")
    /// The store file is damaged.
    public static let corruptStore = CoreDataErrorCode(259, "corruptStore")
    /// The store is read-only and a save was attempted.
    public static let readOnly = CoreDataErrorCode(513, "readOnly")
    /// The store type is not registered with the coordinator.
    public static let unknownStoreType = CoreDataErrorCode(134010, "unknownStoreType")
    /// A save failed in the store; nothing of it was written.
    public static let saveFailed = CoreDataErrorCode(134030, "saveFailed")
    /// The operation needs a loaded store and there is none, or the store was removed.
    public static let noStore = CoreDataErrorCode(134070, "noStore")
    /// A write would break a uniqueness constraint that the store's unique index enforces (a
    /// write that no merge policy resolves, such as SQL run on the store by another program).
    public static let constraintViolation = CoreDataErrorCode(1551, "constraintViolation")
    /// Opening the store would add a uniqueness constraint that stored rows already break; the
    /// message names the constraint and a duplicated value. Nothing was changed.
    public static let migrationConstraintViolation = CoreDataErrorCode(134111, "migrationConstraintViolation")
    /// Another SQLite failure, with ``sqliteCode`` set.
    public static let sqliteError = CoreDataErrorCode(134180, "sqliteError")

    package init(_ code: CoreDataErrorCode, _ message: String, url: URL? = nil, sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.sqliteCode = sqliteCode
    }
}

extension PersistentStoreError {
    /// A store configuration this library does not support (several stores per coordinator,
    /// model configurations).
    public static let unsupportedConfiguration = CoreDataErrorCode(134011, "unsupportedConfiguration")
}
