import FetchedResultsChecking
import Foundation
import GRDB
import OpenCoreData
import Testing

/// Names in a model built in code become SQLite names: tables for entities, join tables for
/// many-to-many relationships, indexes, triggers. SQLite reserves some and compares them without
/// case, and the store has names of its own. A model whose names cannot all be made must be
/// refused before the store is touched, with a ``ModelError`` that says what to rename; any other
/// model must load and work, every index included.
@Suite struct ModelNameTests {
    // MARK: A model, as plain data

    /// A model described as data, so that it can be built again for a relaunch (a model freezes
    /// once a coordinator uses it).
    struct Spec: CustomStringConvertible, Sendable {
        enum Link: CaseIterable, Sendable {
            /// To-one, no inverse: a column and an index.
            case toOne
            /// To-many, no inverse: a join table.
            case toManyAlone
            /// To-many with a to-many inverse: one join table for both.
            case manyToMany
            /// To-many with a to-one inverse: the inverse's column.
            case oneToMany
        }

        struct Relationship: Sendable {
            var name: String
            var destination: Int
            var link: Link
            var inverseName: String
        }

        struct Entity: Sendable {
            var name: String
            /// The entity this one inherits from, by position.
            var parent: Int? = nil
            var attributes: [(name: String, indexed: Bool)] = []
            var relationships: [Relationship] = []
            var indexes: [(name: String, attribute: String)] = []
        }

        var entities: [Entity]

        var description: String {
            entities.map { entity in
                let parts = entity.attributes.map { $0.indexed ? "\($0.name)(indexed)" : $0.name }
                    + entity.relationships.map { "\($0.name)->\(entities[$0.destination].name)[\($0.link), inverse \($0.inverseName)]" }
                    + entity.indexes.map { "index \($0.name)(\($0.attribute))" }
                return "\(entity.name)\(entity.parent.map { ":" + entities[$0].name } ?? ""){\(parts.joined(separator: ", "))}"
            }.joined(separator: " ")
        }

        /// Every name of the model, for checking that an error names something of it.
        var names: [String] {
            entities.flatMap { entity in
                [entity.name] + entity.attributes.map(\.name) + entity.relationships.flatMap { [$0.name, $0.inverseName] }
                    + entity.indexes.map(\.name)
            }
        }

        func model() -> ManagedObjectModel {
            let descriptions = entities.map { EntityDescription(name: $0.name) }
            var properties: [[PropertyDescription]] = entities.map { entity in
                entity.attributes.map { AttributeDescription(name: $0.name, type: .string, isIndexed: $0.indexed) }
            }
            for (index, entity) in entities.enumerated() {
                for spec in entity.relationships {
                    let destination = descriptions[spec.destination]
                    let relationship = RelationshipDescription(name: spec.name, destination: destination, toMany: spec.link != .toOne)
                    properties[index].append(relationship)
                    guard spec.link == .manyToMany || spec.link == .oneToMany else { continue }
                    let inverse = RelationshipDescription(name: spec.inverseName, destination: descriptions[index],
                                                          toMany: spec.link == .manyToMany)
                    relationship.inverseRelationship = inverse
                    inverse.inverseRelationship = relationship
                    properties[spec.destination].append(inverse)
                }
            }
            for (index, entity) in entities.enumerated() {
                descriptions[index].properties = properties[index]
                descriptions[index].indexes = entity.indexes.map {
                    FetchIndexDescription(name: $0.name, elements: [FetchIndexElementDescription(propertyName: $0.attribute)])
                }
                if let parent = entity.parent { descriptions[parent].subentities.append(descriptions[index]) }
            }
            return ManagedObjectModel(entities: descriptions)
        }

        /// How many indexes the store must make: one per indexed attribute, to-one relationship
        /// and declared index, and one per join table.
        var expectedIndexCount: Int {
            // Each relationship of the spec makes one: a to-one's column (its own, or its
            // inverse's), or a join table's (one for a many-to-many pair).
            entities.reduce(0) { $0 + $1.attributes.filter(\.indexed).count + $1.indexes.count + $1.relationships.count }
        }
    }

    // MARK: Generating models

    private static let entityNames = ["A", "A_b", "a_B", "B", "E", "E_a", "ocd", "Ocd", "sqlite_x", "SQLITE_Y", "sqlite", "X_insert", "Metadata"]
    private static let propertyNames = ["b", "c", "b_c", "Bc", "bc", "x", "a_b", "metadata", "primary_keys", "saving", "rowid", "index_E_x",
                                        "generation_A_insert", "ocd", "value", "source", "target"]
    private static let indexNames = ["x", "b", "idx", "a_b", "X"]

    private static func randomSpec(_ random: inout SplitMix64) -> Spec {
        var names: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let name = entityNames.randomElement(using: &random)!
            // Entity names must differ without case; that rule is tested elsewhere.
            if !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
        }
        var entities = names.map { Spec.Entity(name: $0, parent: nil, attributes: [], relationships: [], indexes: []) }
        if entities.count > 1, Bool.random(using: &random) { entities[entities.count - 1].parent = 0 }
        var used = Array(repeating: Set<String>(), count: entities.count)
        func freshName(for entity: Int) -> String? {
            let name = propertyNames.randomElement(using: &random)!
            // A property name may be declared once per entity and its ancestors (tested elsewhere).
            let lineage = [entity] + (entities[entity].parent.map { [$0] } ?? [])
            guard lineage.allSatisfy({ !used[$0].contains(name) }), !entities.indices.contains(where: { entities[$0].parent == entity && used[$0].contains(name) }) else { return nil }
            used[entity].insert(name)
            return name
        }
        for index in entities.indices {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                if let name = freshName(for: index) { entities[index].attributes.append((name, Bool.random(using: &random))) }
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let destination = Int.random(in: entities.indices, using: &random)
                let link = Spec.Link.allCases.randomElement(using: &random)!
                guard let name = freshName(for: index) else { continue }
                var inverseName = ""
                if link == .manyToMany || link == .oneToMany {
                    guard let inverse = freshName(for: destination) else { used[index].remove(name); continue }
                    inverseName = inverse
                }
                entities[index].relationships.append(.init(name: name, destination: destination, link: link, inverseName: inverseName))
            }
            if let attribute = entities[index].attributes.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
                entities[index].indexes.append((indexNames.randomElement(using: &random)!, attribute.name))
            }
        }
        return Spec(entities: entities)
    }

    // MARK: Checking one model

    enum Outcome: Equatable {
        case refused
        case works
    }

    /// Loads `spec` into a new SQLite store; a refusal must be a ``ModelError/invalidName``
    /// naming something of the model and saying to rename it; a model that loads must keep an
    /// object of every entity with every relationship set, through a relaunch, and have every
    /// index it asked for.
    private static func check(_ spec: Spec) throws -> Outcome {
        let directory = TemporaryDirectory()
        let store = directory.file("Names.sqlite")
        func open() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Names", managedObjectModel: spec.model())
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
            try container.loadPersistentStores()
            return container
        }
        let container: PersistentContainer
        do {
            container = try open()
        } catch let error as ModelError {
            try #require(error.code == ModelError.invalidName, "\(spec): \(error)")
            try #require(error.message.contains("rename") && spec.names.contains { error.message.contains("'\($0)'") || error.message.contains(".\($0)") || error.message.contains("\($0).") },
                         "\(spec): the error does not say what to rename: \(error.message)")
            #expect(!FileManager.default.fileExists(atPath: store.path), "\(spec): the refused model created the store")
            return .refused
        } catch {
            Issue.record("\(spec): loading failed with \(error) instead of a ModelError")
            return .refused
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var objects: [ManagedObject] = []
            for entity in spec.entities {
                let object = try container.insert(entity.name, [:], into: context)
                for attribute in entity.attributes { object.setValue("\(entity.name).\(attribute.name)", forKey: attribute.name) }
                objects.append(object)
            }
            for (index, entity) in spec.entities.enumerated() {
                for relationship in entity.relationships {
                    let destination = objects[relationship.destination]
                    objects[index].setValue(relationship.link == .toOne ? destination : Set([destination]), forKey: relationship.name)
                }
            }
            try context.save()
        }
        let indexes = try DatabaseQueue(path: store.path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE '\\_ocd\\_index\\_%' ESCAPE '\\'") ?? 0
        }
        #expect(indexes == spec.expectedIndexCount, "\(spec): \(indexes) indexes, \(spec.expectedIndexCount) asked for")
        try container.persistentStoreCoordinator.remove(try #require(container.persistentStoreCoordinator.persistentStores.first))

        let relaunched = try open()
        let reader = relaunched.newBackgroundContext()
        try reader.performAndWait {
            for (index, entity) in spec.entities.enumerated() {
                // One object of this entity, and one of each subentity.
                let objects = try relaunched.objects(entity.name, in: reader)
                let expected = 1 + spec.entities.filter { $0.parent == index }.count
                try #require(objects.count == expected, "\(spec): \(objects.count) \(entity.name) objects after relaunch")
                let object = try #require(objects.first { $0.entity.name == entity.name })
                for attribute in entity.attributes {
                    #expect(object.value(forKey: attribute.name) as? String == "\(entity.name).\(attribute.name)", "\(spec): \(entity.name).\(attribute.name)")
                }
                for relationship in entity.relationships {
                    let value = object.value(forKey: relationship.name)
                    let count = relationship.link == .toOne ? (value is ManagedObject ? 1 : 0) : (value as? Set<ManagedObject>)?.count ?? 0
                    #expect(count == 1, "\(spec): \(entity.name).\(relationship.name) lost its link")
                }
            }
        }
        return .works
    }

    // MARK: Tests

    /// Random models from names chosen to collide: each is refused with a useful error, or works.
    @Test func everyModelIsRefusedWithWhatToRenameOrWorks() throws {
        let seed = ProcessInfo.processInfo.environment["MODEL_NAME_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        var outcomes: [Outcome: Int] = [:]
        for _ in 0..<150 {
            let spec = Self.randomSpec(&random)
            let outcome = try Self.check(spec)
            outcomes[outcome, default: 0] += 1
        }
        print("ModelNameTests seed \(seed) (MODEL_NAME_SEED replays it): \(outcomes[.works] ?? 0) models work, \(outcomes[.refused] ?? 0) refused")
        #expect((outcomes[.works] ?? 0) > 20 && (outcomes[.refused] ?? 0) > 20, "the generator no longer covers both outcomes")
    }

    /// Each kind of clash, with the names the error must give.
    @Test(arguments: [
        ("SQLite's prefix", Spec(entities: [.init(name: "sqlite_things", attributes: [("x", false)])]), ["sqlite_things", "sqlite_"]),
        ("SQLite's prefix in capitals", Spec(entities: [.init(name: "SQLITE_Things", attributes: [])]), ["SQLITE_Things"]),
        ("join tables", Spec(entities: [.init(name: "A", relationships: [.init(name: "b_c", destination: 2, link: .toManyAlone, inverseName: "")]),
                                        .init(name: "A_b", relationships: [.init(name: "c", destination: 2, link: .toManyAlone, inverseName: "")]),
                                        .init(name: "X")]), ["A.b_c", "A_b.c"]),
        ("join tables without case", Spec(entities: [.init(name: "A", relationships: [.init(name: "Bc", destination: 1, link: .toManyAlone, inverseName: ""),
                                                                                      .init(name: "bc", destination: 1, link: .toManyAlone, inverseName: "")]),
                                                     .init(name: "X")]), ["A.Bc", "A.bc"]),
        ("indexes", Spec(entities: [.init(name: "E", attributes: [("x", true), ("y", false)], indexes: [("x", "y")])]), ["E.x", "'x'"]),
        ("indexes across entities", Spec(entities: [.init(name: "E", attributes: [("a_b", true)]), .init(name: "E_a", attributes: [("b", true)])]),
         ["E.a_b", "E_a.b"]),
        ("the store's tables", Spec(entities: [.init(name: "ocd", relationships: [.init(name: "metadata", destination: 0, link: .toManyAlone, inverseName: "")])]),
         ["ocd.metadata", "_ocd_"]),
        ("the store's tables without case", Spec(entities: [.init(name: "OCD", relationships: [.init(name: "Saving", destination: 0, link: .toManyAlone, inverseName: "")])]),
         ["OCD.Saving"]),
    ] as [(String, Spec, [String])])
    func eachClashIsRefusedNamingBothSides(_ clash: String, _ spec: Spec, _ fragments: [String]) throws {
        let directory = TemporaryDirectory()
        let container = PersistentContainer(name: "Names", managedObjectModel: spec.model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.file("Names.sqlite"))]
        let error = #expect(throws: ModelError.self) { try container.loadPersistentStores() }
        #expect(error?.code == ModelError.invalidName)
        for fragment in fragments {
            #expect(error?.message.contains(fragment) == true, "\(clash): '\(fragment)' is missing from: \(error?.message ?? "no error")")
        }
        #expect(error?.message.contains("rename") == true, "\(clash): \(error?.message ?? "no error")")
        // The in-memory store refuses the same model, so that tests in memory catch it.
        let inMemory = PersistentContainer(name: "Names", managedObjectModel: spec.model())
        let description = PersistentStoreDescription()
        description.type = InMemoryStoreType
        inMemory.persistentStoreDescriptions = [description]
        #expect(throws: ModelError.self) { try inMemory.loadPersistentStores() }
    }

    /// Names close to the clashes that are fine.
    @Test(arguments: [
        Spec(entities: [.init(name: "A", relationships: [.init(name: "b_c", destination: 1, link: .toManyAlone, inverseName: "")]), .init(name: "X")]),
        Spec(entities: [.init(name: "sqlite", attributes: [("rowid", true), ("source", false)]), .init(name: "Sqlitex")]),
        Spec(entities: [.init(name: "ocd", attributes: [("metadata", true)], relationships: [.init(name: "saving", destination: 0, link: .toOne, inverseName: "")])]),
        Spec(entities: [.init(name: "E", attributes: [("x", true), ("y", false)], indexes: [("byY", "y")])]),
    ])
    func nearMissesWork(_ spec: Spec) throws {
        #expect(try Self.check(spec) == .works)
    }
}

extension ModelNameTests.Spec: CustomTestStringConvertible {
    var testDescription: String { description }
}
