import Foundation
import GRDB

/// External binary storage (see ``SQLiteExternalData``): what a save writes to files, which files
/// it leaves unreferenced, reading a value back, and sweeping files no row names.
extension SQLiteStoreBackend {
    /// Moves the large values of `request`'s external-storage attributes to files, putting the
    /// files' names in their place, and records the files of values it replaces or deletes.
    /// Runs inside the save's transaction, before anything is written.
    func storeExternalData(of request: inout SaveRequest, _ db: Database, loaded: Loaded,
                           changes: SQLiteExternalDataChanges) throws {
        guard !loaded.binaryAttributes.isEmpty else { return }
        // Without the folder no row names a file: replaced and deleted values need no look-up.
        let mayNameFiles = externalData.exists
        for index in request.inserted.indices {
            let entity = request.inserted[index].objectID.entity
            for attribute in loaded.binaryAttributes[ObjectIdentifier(entity)] ?? [] where attribute.allowsExternalBinaryDataStorage {
                try externalize(&request.inserted[index], attribute, changes: changes)
            }
        }
        for index in request.updated.indices {
            let id = request.updated[index].snapshot.objectID
            guard let attributes = loaded.binaryAttributes[ObjectIdentifier(id.entity)] else { continue }
            let changed = attributes.filter { request.updated[index].changedSlots.contains($0.slot) }
            guard !changed.isEmpty else { continue }
            if mayNameFiles { changes.released += try externalFileNames(of: id, changed, db, loaded: loaded) }
            for attribute in changed where attribute.allowsExternalBinaryDataStorage {
                try externalize(&request.updated[index].snapshot, attribute, changes: changes)
            }
        }
        for deletion in request.deleted where mayNameFiles {
            guard let attributes = loaded.binaryAttributes[ObjectIdentifier(deletion.objectID.entity)] else { continue }
            changes.released += try externalFileNames(of: deletion.objectID, attributes, db, loaded: loaded)
        }
    }

    /// Runs `write` with a record of the files it writes and releases, and settles the files
    /// after the transaction: released ones go if it committed, written ones if it did not.
    func withExternalDataChanges<T>(_ write: (SQLiteExternalDataChanges) throws -> (T, committed: Bool)) throws -> T {
        let changes = SQLiteExternalDataChanges()
        do {
            let (result, committed) = try write(changes)
            changes.finish(committed: committed, in: externalData)
            return result
        } catch {
            changes.finish(committed: false, in: externalData)
            throw error
        }
    }

    private func externalize(_ row: inout RowSnapshot, _ attribute: AttributeDescription, changes: SQLiteExternalDataChanges) throws {
        guard case .data(let data) = row.value(at: attribute.slot), data.count >= SQLiteExternalData.threshold else { return }
        do {
            let name = try externalData.write(data)
            changes.written.append(name)
            row.values[attribute.slot] = .string(name)
        } catch {
            throw PersistentStoreError(PersistentStoreError.saveFailed, "could not write the value of \(attribute.entity?.entityName ?? "?").\(attribute.name) (\(data.count) bytes) to \(externalData.folder.path): \(error.localizedDescription); nothing of the save was written", url: url)
        }
    }

    /// The files that `attributes` of the row `id` name now.
    private func externalFileNames(of id: ManagedObjectID, _ attributes: [AttributeDescription], _ db: Database, loaded: Loaded) throws -> [String] {
        guard let table = loaded.schema.table(for: id.entity) else { return [] }
        var names: [String] = []
        for attribute in attributes {
            let column = quoted(loaded.schema.columnName(of: attribute))
            let statement = try db.cachedStatement(sql: "SELECT \(column) FROM \(quoted(table.name)) WHERE \"_pk\" = ? AND typeof(\(column)) = 'text'")
            if let name = try String.fetchOne(statement, arguments: [id.key]), SQLiteExternalData.isFileName(name) {
                names.append(name)
            }
        }
        return names
    }

    /// The value a row's column names by `fileName`.
    func externalValue(_ fileName: String, of attribute: AttributeDescription) throws -> PropertyValue {
        do {
            return .data(try externalData.read(fileName))
        } catch {
            throw PersistentStoreError(PersistentStoreError.corruptStore, "the value of \(attribute.entity?.entityName ?? "?").\(attribute.name) is kept in \(externalData.folder.appendingPathComponent(fileName).path), which cannot be read (\(error.localizedDescription)); if another connection replaced the value while this read ran, read again", url: url)
        }
    }

    /// Removes the files in the folder that no committed row names. It holds the write lock (an
    /// immediate transaction) while it looks: saves write their files under it, so a file of a
    /// save in progress elsewhere cannot be taken for an unreferenced one. It runs after the
    /// commits that may release files without naming them (loads, which may migrate; batch
    /// updates), never inside one: a rollback would bring back rows naming removed files.
    func sweepExternalData(loaded: Loaded) throws {
        guard !description.isReadOnly, externalData.exists else { return }
        do {
            try writer.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    var referenced = Set<String>()
                    var columns = Set<String>()
                    for entity in loaded.entityByCode.values {
                        guard let attributes = loaded.binaryAttributes[ObjectIdentifier(entity)],
                              let table = loaded.schema.table(for: entity) else { continue }
                        for attribute in attributes {
                            let column = quoted(loaded.schema.columnName(of: attribute))
                            guard columns.insert("\(table.name).\(column)").inserted else { continue }
                            referenced.formUnion(try String.fetchAll(db, sql: "SELECT \(column) FROM \(quoted(table.name)) WHERE typeof(\(column)) = 'text'"))
                        }
                    }
                    let unreferenced = externalData.fileNames().filter { !referenced.contains($0) }
                    if !unreferenced.isEmpty {
                        externalData.remove(unreferenced)
                        log.debug("removed \(unreferenced.count) externally stored value(s) no row names", metadata: ["folder": "\(externalData.folder.path)"])
                    }
                    return .commit
                }
            }
        } catch {
            throw Self.storeError(error, url: url, doing: "removing externally stored values no row names")
        }
    }

    /// Binary attributes with a column: those whose stored values may name files.
    static func binaryAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        entity.slots.compactMap { $0 as? AttributeDescription }.filter { $0.attributeType == .binaryDataAttributeType && !$0.isTransient }
    }
}
