import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData
import Testing

/// Stores and files for ``StoredModelTests``.
enum StoredModelFixtures {
    /// Objects of the fixtures' entities that ``WorldCupData`` leaves empty: every attribute type,
    /// inheritance with a relationship on the subentity, the seed apps' entities.
    static func seedOthers(_ context: ManagedObjectContext) throws {
        try context.performAndWait {
            for index in 0..<3 {
                let sample = Sample(context: context)
                sample.int16 = Int16(index - 1)
                sample.int32 = Int32(index) * 70_000
                sample.int64 = Int64(index) << 40
                sample.int = index
                sample.double = Double(index) / 3
                sample.float = Float(index) / 10
                sample.decimal = Decimal(1_234 * index) / 100
                sample.string = index == 0 ? nil : "sample \(index)\nline"
                sample.bool = index == 1
                sample.date = index == 2 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 1_000.5)
                sample.data = Data([UInt8(index), 0, 255])
                sample.uuid = UUID()
                sample.url = URL(string: "https://example.com/\(index)")
            }
            let department = Department(context: context)
            department.title = "Research"
            for name in ["Ada", "Grace"] {
                let employee = Employee(context: context)
                employee.name = name
                employee.salary = 100
                employee.department = department
            }
            let person = Person(context: context)
            person.name = "Charles"
            let car = CDCar(context: context)
            car.make = "Ford"
            let item = Item(context: context)
            item.name = "milk"
            let card = Card(context: context)
            card.title = "card"
            try context.save()
        }
    }

    /// A container on the store at `url`, read-only, with `model`.
    static func readOnlyContainer(_ model: ManagedObjectModel, url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Reader", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    /// Every object of exactly the entity, by URI, with every stored property's value as text:
    /// attributes as they print, to-ones and to-manys as the URIs of their destinations.
    static func rows(of entityName: String, in context: ManagedObjectContext) throws -> [String: [String: String]] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: entityName)
            request.includesSubentities = false
            var rows: [String: [String: String]] = [:]
            for object in try context.fetch(request) {
                var values: [String: String] = [:]
                for (name, property) in object.entity.propertiesByName where !property.isTransient {
                    values[name] = text(object.value(forKey: name))
                }
                rows[object.objectID.uriRepresentation().absoluteString] = values
            }
            return rows
        }
    }

    private static func text(_ value: Any?) -> String {
        switch value {
        case nil: "nil"
        case let object as ManagedObject: object.objectID.uriRepresentation().absoluteString
        case let objects as Set<ManagedObject>: objects.map { $0.objectID.uriRepresentation().absoluteString }.sorted().description
        case let value?: "\(value)"
        }
    }

    /// Files `ManagedObjectModel(storedIn:)` must refuse, with the code it must refuse them with.
    enum BadFile: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case missing, directory, text, empty, foreignDatabase, noSchema, unknownAttributeType, unknownDestination

        var testDescription: String { rawValue }

        var expectedCode: CoreDataErrorCode {
            switch self {
            case .missing, .directory: PersistentStoreError.cannotOpen
            case .text, .empty, .foreignDatabase: PersistentStoreError.invalidStoreFile
            case .noSchema, .unknownAttributeType, .unknownDestination: PersistentStoreError.corruptStore
            }
        }

        func make(in directory: TemporaryDirectory) throws -> URL {
            let url = directory.file("\(rawValue).sqlite")
            switch self {
            case .missing:
                break
            case .directory:
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            case .text:
                try Data("just some text, not a database\n".utf8).write(to: url)
            case .empty:
                try Data().write(to: url)
            case .foreignDatabase:
                let queue = try DatabaseQueue(path: url.path)
                try queue.write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT)") }
                try queue.close()
            case .noSchema, .unknownAttributeType, .unknownDestination:
                let stack = try TestStack(directory: directory)
                try WorldCupData.seed(stack.newContext())
                let queue = try DatabaseQueue(path: stack.storeURL.path)
                try queue.write { db in try tamper(db) }
                try queue.close()
                return stack.storeURL
            }
            return url
        }

        private func tamper(_ db: Database) throws {
            let schema = try String.fetchOne(db, sql: "SELECT value FROM _ocd_metadata WHERE key = 'modelSchema'") ?? ""
            let changed: String? = switch self {
            case .noSchema: nil
            case .unknownAttributeType: schema.replacingOccurrences(of: "\"type\":\"string\"", with: "\"type\":\"rational\"")
            default: schema.replacingOccurrences(of: "\"destination\":\"Team\"", with: "\"destination\":\"Squad\"")
            }
            #expect(changed != schema, "the schema was not tampered with")
            if let changed {
                try db.execute(sql: "UPDATE _ocd_metadata SET value = ? WHERE key = 'modelSchema'", arguments: [changed])
            } else {
                try db.execute(sql: "DELETE FROM _ocd_metadata WHERE key = 'modelSchema'")
            }
        }
    }
}
