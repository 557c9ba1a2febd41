public import Foundation

/// Whole stores: destroying, replacing and moving them, as Core Data's coordinator does. SQLite
/// stores only; in-memory stores have nothing to destroy, and other types throw.
extension PersistentStoreCoordinator {
    /// Empties the store at `url`, as Core Data's `destroyPersistentStore(at:type:options:)`
    /// does: afterwards, loading a store there starts from nothing.
    ///
    /// ```swift
    /// try coordinator.destroyPersistentStore(at: storeURL, type: .sqlite)
    /// try coordinator.addPersistentStore(type: .sqlite, at: storeURL)   // a fresh store
    /// ```
    ///
    /// A store of this coordinator at `url` is removed from it first; its objects must not be
    /// used afterwards. The SQLite file is emptied under SQLite's exclusive lock, not deleted, so
    /// that another process that has it open sees an empty store rather than a damaged one (it
    /// stays, empty, as Core Data leaves it). No file: nothing happens.
    ///
    /// - Parameters:
    ///   - url: The store's file.
    ///   - type: The store's type: ``PersistentStore/StoreType/sqlite``, or
    ///     ``PersistentStore/StoreType/inMemory``, which has nothing to destroy.
    ///   - options: Store options; ``PersistentStoreTimeoutOption`` says how long to wait for
    ///     other connections' locks.
    /// - Throws: ``PersistentStoreError/invalidStoreFile`` for a database this library did not
    ///   make (it is left as it is), ``PersistentStoreError/unknownStoreType`` for a type other
    ///   than SQLite or in-memory, and an SQLite error naming the file if it cannot be emptied.
    public func destroyPersistentStore(at url: URL, type: PersistentStore.StoreType,
                                       options: [String: any Sendable]? = nil) throws {
        switch type {
        case .inMemory: return
        case .sqlite:
            if let loaded = persistentStore(for: url) { try remove(loaded) }
            try SQLiteStoreFiles.destroy(at: url, timeout: Self.timeout(in: options))
        default:
            throw Self.unsupportedType(type, "destroyed")
        }
    }

    /// ``destroyPersistentStore(at:type:options:)`` with the store type by name, Core Data's
    /// older spelling.
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [String: any Sendable]? = nil) throws {
        try destroyPersistentStore(at: url, type: PersistentStore.StoreType(rawValue: storeType), options: options)
    }

    /// Replaces the store at `destinationURL` with a copy of the one at `sourceURL`, as Core
    /// Data's `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`
    /// does: to restore a backup, or to install a prepared store.
    ///
    /// ```swift
    /// try coordinator.replacePersistentStore(at: storeURL, withPersistentStoreFrom: backupURL, type: .sqlite)
    /// ```
    ///
    /// The copy is SQLite's backup: a consistent state of the source, even while another
    /// connection writes to it, written over the destination under its lock. The source is left
    /// as it is. Remove a store of this coordinator at the destination first: its contexts would
    /// hold objects of the replaced store.
    ///
    /// - Parameters:
    ///   - destinationURL: The store to replace; made if there is none.
    ///   - destinationOptions: Its options; ``PersistentStoreTimeoutOption`` says how long to wait
    ///     for other connections' locks.
    ///   - sourceURL: The store to copy.
    ///   - sourceOptions: Its options (none is read).
    ///   - type: ``PersistentStore/StoreType/sqlite``.
    /// - Throws: ``PersistentStoreError/cannotOpen`` if there is no source, or the destination
    ///   is loaded by this coordinator; ``PersistentStoreError/invalidStoreFile`` if either file
    ///   is a database this library did not make; ``PersistentStoreError/unknownStoreType`` for
    ///   a type other than SQLite.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [String: any Sendable]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [String: any Sendable]? = nil,
                                       type: PersistentStore.StoreType) throws {
        guard type == .sqlite else { throw Self.unsupportedType(type, "replaced") }
        if persistentStore(for: destinationURL) != nil {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "the store to replace is loaded by this coordinator; remove it with remove(_:) first, then add it again after the replacement", url: destinationURL)
        }
        try SQLiteStoreFiles.replace(destinationURL, with: sourceURL, timeout: Self.timeout(in: destinationOptions))
    }

    /// Moves a loaded store to a new file, as Core Data's `migratePersistentStore(_:to:options:type:)`
    /// does: the store's contents are copied to `url`, the old store is removed from this
    /// coordinator, and the new one takes its place. The old file is left as it is.
    ///
    /// ```swift
    /// let moved = try coordinator.migratePersistentStore(store, to: sharedContainerURL, type: .sqlite)
    /// ```
    ///
    /// The copy keeps the store's identifier, so object IDs and their URIs stay valid, and
    /// contexts go on with their registered objects. Save pending changes first: the copy is of
    /// what is saved.
    ///
    /// - Parameters:
    ///   - store: A store of this coordinator.
    ///   - url: Where it moves; there must be no store there.
    ///   - options: The moved store's options, as ``addPersistentStore(type:configuration:at:options:)`` takes them.
    ///   - type: ``PersistentStore/StoreType/sqlite``.
    /// - Returns: The store at `url`.
    /// - Throws: ``PersistentStoreError/noStore`` if `store` is not loaded by this coordinator;
    ///   ``PersistentStoreError/cannotOpen`` if `url` already holds a store;
    ///   ``PersistentStoreError/unknownStoreType`` unless both stores are SQLite.
    @discardableResult
    public func migratePersistentStore(_ store: PersistentStore, to url: URL, options: [String: any Sendable]? = nil,
                                       type: PersistentStore.StoreType) throws -> PersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw PersistentStoreError(PersistentStoreError.noStore, "\(store) is not a store of this coordinator")
        }
        guard type == .sqlite, store.type == .sqlite, let backend = store.backend as? SQLiteStoreBackend else {
            throw Self.unsupportedType(type == .sqlite ? store.type : type, "migrated")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if (attributes?[.size] as? Int ?? 0) > 0 || store.url?.standardizedFileURL == url.standardizedFileURL {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "a store already exists at \(url.path); destroy it first, or use replacePersistentStore", url: url)
        }
        do {
            if let source = store.url { try SQLiteStoreFiles.copyExternalData(of: source, to: url) }
            try SQLiteStoreFiles.copy(from: backend.writer, to: url, timeout: Self.timeout(in: options))
        } catch {
            throw SQLiteStoreBackend.storeError(error, url: url, doing: "copying the store to it")
        }
        let description = PersistentStoreDescription(url: url)
        description.type = type.rawValue
        for (key, value) in options ?? [:] { description.setOption(value, forKey: key) }
        try remove(store)
        do {
            return try addPersistentStore(with: description)
        } catch {
            // The coordinator goes on with the store it had rather than with none.
            if let oldURL = store.url {
                let old = PersistentStoreDescription(url: oldURL)
                old.isReadOnly = store.isReadOnly
                _ = try? addPersistentStore(with: old)
            }
            throw error
        }
    }

    private static func timeout(in options: [String: any Sendable]?) -> TimeInterval {
        (options?[PersistentStoreTimeoutOption] as? TimeInterval) ?? PersistentStoreDescription().timeout
    }

    private static func unsupportedType(_ type: PersistentStore.StoreType, _ verb: String) -> PersistentStoreError {
        PersistentStoreError(PersistentStoreError.unknownStoreType, "stores of type '\(type.rawValue)' cannot be \(verb) by the coordinator; SQLite stores can")
    }
}
