#if Postgres
import Foundation
import OpenCoreData
import Testing

/// One store of the save tests, SQLite (a file in a directory of its own) or PostgreSQL (a
/// schema of its own), opened by as many containers (coordinators, backends) as a test asks:
/// the same sequence of saves runs on both kinds and their rows are compared.
final class SaveTestStore: @unchecked Sendable {
    enum Kind: String, CaseIterable, Sendable { case sqlite, postgres }

    let kind: Kind
    /// The model every container of the store uses, so that object IDs pass between them.
    let model = saveModel()
    private let schema: TestStoreSchema?
    private let directory: URL?

    init(_ kind: Kind) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-save-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            schema = nil
        case .postgres:
            schema = try TestStoreSchema()
            directory = nil
        }
    }

    deinit {
        schema?.drop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The PostgreSQL schema of a PostgreSQL store.
    var postgresSchema: TestStoreSchema {
        get throws { try #require(schema) }
    }

    /// A new container (its own coordinator and backend) on the store, its description adjusted
    /// by `configure` before it loads.
    func container(configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
        let description: PersistentStoreDescription
        if let schema {
            description = try schema.description()
        } else {
            description = PersistentStoreDescription(url: try #require(directory).appendingPathComponent("store.sqlite"))
        }
        configure(description)
        let container = PersistentContainer(name: "Saves", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }
}

extension ManagedObjectContext {
    /// Saves, returning the error instead of throwing it.
    func saveCatching() -> (any Error)? {
        do {
            try save()
            return nil
        } catch {
            return error
        }
    }
}

/// What a store holds for some objects, read through a new context by object ID, with every
/// value in ``SaveModelValues/canonical(_:type:)`` form and objects named by their `label`: equal
/// dumps from two stores mean equal rows, whatever primary keys each store gave.
func dump(_ ids: [ManagedObjectID], in container: PersistentContainer) -> [String] {
    let context = container.newBackgroundContext()
    return context.performAndWait {
        ids.map { id -> String in
            guard let object = try? context.existingObject(with: id) else { return "absent" }
            return describe(object)
        }
    }
}

/// An object in ``dump(_:in:)``'s form.
func describe(_ object: ManagedObject) -> String {
    var fields: [String] = []
    for (name, property) in object.entity.propertiesByName.sorted(by: { $0.key < $1.key }) {
        if let attribute = property as? AttributeDescription {
            fields.append("\(name)=\(SaveModelValues.canonical(object.value(forKey: name), type: attribute.attributeType))")
        } else if let relationship = property as? RelationshipDescription, relationship.isToMany {
            let labels = (object.value(forKey: name) as? Set<ManagedObject> ?? []).map { $0.value(forKey: "label") as? String ?? "?" }
            fields.append("\(name)=\(labels.sorted())")
        } else {
            let destination = object.value(forKey: name) as? ManagedObject
            fields.append("\(name)=\(destination.map { $0.value(forKey: "label") as? String ?? "?" } ?? "nil")")
        }
    }
    return "\(object.entity.entityName) " + fields.joined(separator: " ")
}

/// An error as the tests compare it across stores: its type and code.
func errorSummary(_ error: (any Error)?) -> String {
    guard let error else { return "saved" }
    if let error = error as? ObjectGraphError { return "ObjectGraphError \(error.code)" }
    if let error = error as? PersistentStoreError { return "PersistentStoreError \(error.code)" }
    if let error = error as? ValidationError { return "ValidationError \(error.code)" }
    return "\(type(of: error))"
}
#endif
