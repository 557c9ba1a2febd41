import FetchedResultsChecking
import Foundation
import GRDB
@testable import OpenCoreData
import Testing

/// `ManagedObjectModel(storedIn:)`: the model a store records, rebuilt without the app's classes,
/// opens the store read-only and reads every row as the app's model does.
@Suite struct StoredModelTests {
    @Test func rebuiltModelReadsEveryObjectAsTheAppsModel() throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        try StoredModelFixtures.seedOthers(stack.newContext())
        let model = try ManagedObjectModel(storedIn: stack.storeURL)
        #expect(ModelSchema(model: model) == ModelSchema(model: stack.container.managedObjectModel))
        #expect(model.name == "Test")
        #expect(model.entities.allSatisfy { $0.managedObjectClass == ManagedObject.self })

        let reader = try StoredModelFixtures.readOnlyContainer(model, url: stack.storeURL)
        for entity in stack.container.managedObjectModel.entities {
            let expected = try StoredModelFixtures.rows(of: entity.name ?? "", in: stack.newContext())
            let read = try StoredModelFixtures.rows(of: entity.name ?? "", in: reader.newBackgroundContext())
            #expect(read == expected, "entity \(entity.name ?? "")")
            #expect(!expected.isEmpty, "entity \(entity.name ?? "") has no objects: the test proves nothing for it")
        }
    }

    /// Random models (seeded): inheritance, every attribute type with and without defaults, every
    /// kind of relationship (to-one and to-many without inverse, one-to-one, one-to-many,
    /// many-to-many, to and from entities of a hierarchy) and uniqueness constraints. Each store's
    /// rebuilt model has the app model's schema, opens the store, and pairs every inverse the
    /// storage records.
    @Test func randomModelsRebuildToTheirSchema() throws {
        let seed = ProcessInfo.processInfo.environment["STORED_MODEL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory()
        for index in 0..<60 {
            let original = RandomModel.make(using: &random)
            let url = directory.file("Random\(index).sqlite")
            let writer = PersistentContainer(name: "Random", managedObjectModel: original)
            writer.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            let rebuilt: ManagedObjectModel
            do {
                try writer.loadPersistentStores()
                rebuilt = try ManagedObjectModel(storedIn: url)
            } catch {
                Issue.record("seed \(seed) (STORED_MODEL_SEED), model \(index): \(error)")
                continue
            }
            #expect(ModelSchema(model: rebuilt) == ModelSchema(model: original), "seed \(seed) (STORED_MODEL_SEED), model \(index)")
            _ = try StoredModelFixtures.readOnlyContainer(rebuilt, url: url)
            for entity in original.entities {
                for case let relationship as RelationshipDescription in entity.properties {
                    guard let inverse = relationship.inverseRelationship, relationship.isToMany || inverse.isToMany else { continue }
                    let copy = rebuilt.entitiesByName[entity.name ?? ""]?.relationshipsByName[relationship.name]
                    #expect(copy?.inverseRelationship?.name == inverse.name,
                            "seed \(seed), model \(index): \(entity.name ?? "").\(relationship.name) lost its inverse \(inverse.name)")
                }
            }
        }
    }

    /// A store made before models had names records neither the name nor version identifiers.
    @Test func storeWithoutAModelNameRebuildsAnUnnamedModel() throws {
        let stack = try TestStack()
        try WorldCupData.seed(stack.newContext())
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM _ocd_metadata WHERE key IN ('modelName', 'modelVersionIdentifiers')")
        }
        try queue.close()
        let model = try ManagedObjectModel(storedIn: stack.storeURL)
        #expect(model.name == nil)
        let reader = try StoredModelFixtures.readOnlyContainer(model, url: stack.storeURL)
        #expect(try StoredModelFixtures.rows(of: "Team", in: reader.newBackgroundContext()).count == WorldCupData.teams.count)
    }

    /// Files that are no store, each refused with the error that names why.
    @Test(arguments: StoredModelFixtures.BadFile.allCases)
    func fileThatIsNoStoreIsRefused(_ file: StoredModelFixtures.BadFile) throws {
        let directory = TemporaryDirectory()
        let url = try file.make(in: directory)
        let before = try? Data(contentsOf: url)
        #expect {
            _ = try ManagedObjectModel(storedIn: url)
        } throws: { error in
            (error as? PersistentStoreError)?.code == file.expectedCode
        }
        #expect((try? Data(contentsOf: url)) == before, "reading the model changed the file")
    }
}
