import Foundation
import GRDB
import Logging

/// The SQLite store: ``SQLiteStoreType``, on GRDB with the system's libsqlite3, in WAL mode so
/// that reads run beside a write. Each save is one immediate transaction.
final class SQLiteStoreBackend: PersistentStoreBackend, @unchecked Sendable {
    let url: URL
    let writer: any DatabaseWriter
    let description: PersistentStoreDescription
    /// Lifecycle messages.
    let log: Logger
    /// Whether saves are recorded in the persistent history (by default they are), and how long
    /// it is kept (see SQLiteStoreBackend+History).
    let historySettings: PersistentHistorySettings
    /// When this connection applies the history's retention rule in a save.
    let historyPruneSchedule = HistoryPruneSchedule()
    /// A read-only connection of its own for ``quietGeneration()``, opened when first needed.
    let quietReader = Locked<DatabaseQueue?>(nil)
    /// Where large values of binary attributes are kept (see ``SQLiteExternalData``).
    let externalData: SQLiteExternalData

    /// What loading established; read by every operation afterwards.
    final class Loaded: Sendable {
        let identifier: String
        /// ``identifier`` as the tag of the IDs its rows decode to.
        let tag: StoreTag
        let schema: SQLiteSchema
        let codeByEntity: [ObjectIdentifier: Int64]
        let entityByCode: [Int64: EntityDescription]
        /// Each entity's binary attributes with a column, for entities that have some: the
        /// values that may be kept in files (see SQLiteStoreBackend+ExternalData).
        let binaryAttributes: [ObjectIdentifier: [AttributeDescription]]
        /// How each entity's rows decode, by entity code.
        let decodePlans: [Int64: SQLiteRowDecodePlan]
        /// The statements saves and key lookups run, built once.
        let texts: SQLiteStatementTexts

        init(identifier: String, schema: SQLiteSchema, codes: [String: Int64], model: ManagedObjectModel) {
            self.identifier = identifier
            tag = StoreTag(identifier)
            self.schema = schema
            var codeByEntity: [ObjectIdentifier: Int64] = [:]
            var entityByCode: [Int64: EntityDescription] = [:]
            for entity in model.entities {
                if let code = codes[entity.entityName] {
                    codeByEntity[ObjectIdentifier(entity)] = code
                    entityByCode[code] = entity
                }
            }
            self.codeByEntity = codeByEntity
            self.entityByCode = entityByCode
            decodePlans = entityByCode.mapValues { SQLiteRowDecodePlan(entity: $0, schema: schema) }
            texts = SQLiteStatementTexts(schema: schema, codeByEntity: codeByEntity, entities: model.entities)
            binaryAttributes = model.entities.reduce(into: [:]) { result, entity in
                let attributes = SQLiteStoreBackend.binaryAttributes(of: entity)
                if !attributes.isEmpty { result[ObjectIdentifier(entity)] = attributes }
            }
        }

        func code(of entity: EntityDescription) -> Int64 { codeByEntity[ObjectIdentifier(entity)] ?? 0 }
    }

    let loadedState = Locked<Loaded?>(nil)

    var loaded: Loaded {
        get throws {
            guard let loaded = loadedState.withLock({ $0 }) else {
                throw PersistentStoreError(PersistentStoreError.noStore, "the store is not loaded", url: url)
            }
            return loaded
        }
    }

    init(url: URL, description: PersistentStoreDescription) throws {
        self.url = url
        self.description = description
        externalData = SQLiteExternalData(store: url)
        log = description.logger ?? Log.store
        historySettings = PersistentHistorySettings(description: description, recordsByDefault: true)
        let sqlLog = description.logger ?? Log.sql
        try Self.prepareDirectory(for: url, readOnly: description.isReadOnly)
        var configuration = Configuration()
        configuration.label = "OpenCoreData"
        configuration.readonly = description.isReadOnly
        configuration.busyMode = .timeout(description.timeout)
        configuration.publicStatementArguments = description.logsSQLParameterValues
        let showsValues = description.logsSQLParameterValues
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(in: db)
            SQLiteLimits.apply(to: db)
            if sqlLog.logLevel <= .trace {
                db.trace(options: .statement) { event in
                    sqlLog.trace("\(showsValues ? event.expandedDescription : event.description)")
                }
            }
        }
        writer = try Self.retryingWhileBusy(url: url, timeout: description.timeout) { [description] in
            if description.isReadOnly { return try Self.openReadOnly(url, configuration: configuration) }
            try Self.inspectExistingFile(at: url, timeout: description.timeout)
            return try Self.checkedOpen(DatabasePool(path: url.path, configuration: configuration))
        }
        log.debug("opened SQLite store", metadata: ["path": "\(url.path)", "readOnly": "\(description.isReadOnly)"])
    }

    private static func prepareDirectory(for url: URL, readOnly: Bool) throws {
        let directory = url.deletingLastPathComponent()
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            // SQLite would say "disk I/O error" (read-only) or "unable to open database file".
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "the store's URL names a directory, not a file", url: url)
        }
        if readOnly {
            guard files.fileExists(atPath: url.path) else {
                throw PersistentStoreError(PersistentStoreError.cannotOpen, "there is no store file to open read-only", url: url)
            }
            return
        }
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "cannot create the store's directory \(directory.path): \(error.localizedDescription)", url: url)
        }
        guard files.isWritableFile(atPath: directory.path) else {
            throw PersistentStoreError(PersistentStoreError.cannotOpen, "the store's directory \(directory.path) is not writable", url: url)
        }
    }

    /// Checks an existing file through a read-only connection before a pool opens it: opening a
    /// pool switches the file to WAL mode and writes to it, which must not happen to a file made
    /// by another program. Throws SQLite's errors as they are: call it inside
    /// ``retryingWhileBusy(url:timeout:_:)``.
    static func inspectExistingFile(at url: URL, timeout: TimeInterval) throws {
        // A new store, or a directory, which opening the pool reports as cannotOpen.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular, (attributes?[.size] as? Int ?? 0) > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        // Another connection may be closing the file (its last close checkpoints under a lock).
        configuration.busyMode = .timeout(timeout)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        guard tables.isEmpty || tables.contains(SQLiteSchema.metadataTable) else {
            throw PersistentStoreError(PersistentStoreError.invalidStoreFile, "the database was not made by OpenCoreData (it has tables \(tables.prefix(5).joined(separator: ", ")))", url: url)
        }
    }

    func close() {
        quietReader.withLock { $0 = nil }
        do {
            // Move the WAL into the main file first: the pool closes its writer before its
            // read-only readers, so no connection would checkpoint on close, and the .sqlite
            // file alone would not hold the saved data.
            if !description.isReadOnly {
                _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            }
            try writer.close()
        } catch {
            log.error("closing \(url.path): \(error)")
        }
    }

    /// Turns a GRDB error into a ``PersistentStoreError`` naming the problem.
    static func storeError(_ error: any Error, url: URL, doing action: String) -> any Error {
        if let predicateError = SQLiteFunctions.predicateError(raisedBy: error) { return predicateError }
        if error is RowDecodingError {
            return PersistentStoreError(PersistentStoreError.corruptStore, "the store file is damaged: a row holds a value of the wrong type while \(action) (\(error))", url: url)
        }
        guard let error = error as? DatabaseError else { return error }
        let code = error.extendedResultCode.rawValue
        let detail = error.message.map { " (\($0))" } ?? ""
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return PersistentStoreError(PersistentStoreError.invalidStoreFile, "the file is not an SQLite database", url: url, sqliteCode: code)
        case .SQLITE_CORRUPT:
            return PersistentStoreError(PersistentStoreError.corruptStore, "the store file is damaged\(detail)", url: url, sqliteCode: code)
        case .SQLITE_CANTOPEN:
            return PersistentStoreError(PersistentStoreError.cannotOpen, "the store file cannot be opened; check that the path names a file in a writable directory\(detail)", url: url, sqliteCode: code)
        case .SQLITE_READONLY, .SQLITE_PERM:
            return PersistentStoreError(PersistentStoreError.readOnly, "the store cannot be written\(detail)", url: url, sqliteCode: code)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return PersistentStoreError(PersistentStoreError.sqliteError, "the store stayed locked by another connection or process while \(action)", url: url, sqliteCode: code)
        case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE:
            return PersistentStoreError(PersistentStoreError.constraintViolation, "a row would break a uniqueness constraint while \(action)\(detail); nothing of it was written", url: url, sqliteCode: code)
        case .SQLITE_FULL:
            return PersistentStoreError(PersistentStoreError.sqliteError, "the disk is full", url: url, sqliteCode: code)
        default:
            return PersistentStoreError(PersistentStoreError.sqliteError, "SQLite error \(code) while \(action)\(detail)", url: url, sqliteCode: code)
        }
    }
}
