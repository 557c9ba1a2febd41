import Foundation
import OpenCoreData
import Testing

/// Staged migration: a store made by V1 of a model migrates to V3 through a lightweight stage
/// (V1 → V2) and a custom one (V2 → V3) whose handlers remove duplicates the new uniqueness
/// constraint would refuse and fill in the new relationship.
@Suite struct StagedMigrationTests {
    /// V1: books with a title and an author's name. V2 adds pages. V3 makes titles unique and
    /// adds authors, linked to their books.
    private static func model(version: Int) -> ManagedObjectModel {
        let book = EntityDescription(name: "Book")
        var properties: [PropertyDescription] = [
            AttributeDescription(name: "title", type: .string, isOptional: false),
            AttributeDescription(name: "authorName", type: .string),
        ]
        if version >= 2 { properties.append(AttributeDescription(name: "pages", type: .integer32, defaultValue: Int32(0))) }
        var entities = [book]
        if version >= 3 {
            let author = EntityDescription(name: "Author")
            let books = RelationshipDescription(name: "books", destination: book, toMany: true, deleteRule: .nullify)
            let writer = RelationshipDescription(name: "writer", destination: author)
            books.inverseRelationship = writer
            writer.inverseRelationship = books
            author.properties = [AttributeDescription(name: "name", type: .string, isOptional: false), books]
            properties.append(writer)
            book.uniquenessConstraints = [["title"]]
            entities.append(author)
        }
        book.properties = properties
        let model = ManagedObjectModel(entities: entities)
        model.name = "Shelf"
        model.versionIdentifiers = ["\(version)"]
        return model
    }

    /// What the handlers saw, in order.
    final class Journal: @unchecked Sendable {
        var entries: [String] = []
        var failWillMigrate = false
    }

    /// V1 → V2 lightweight, V2 → V3 custom, recording into `journal`.
    private static func manager(_ journal: Journal) -> StagedMigrationManager {
        let v1 = model(version: 1), v2 = model(version: 2), v3 = model(version: 3)
        let lightweight = LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum])
        lightweight.label = "V1 to V2"
        let custom = CustomMigrationStage(migratingFrom: ManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                          to: ManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.label = "V2 to V3"
        custom.willMigrateHandler = { manager, _ in
            guard let container = manager.container else { throw CocoaError(.featureUnsupported) }
            journal.entries.append("will: \(container.managedObjectModel.entitiesByName.keys.sorted())")
            if journal.failWillMigrate { throw CocoaError(.userCancelled) }
            // V3 makes titles unique: keep the first book of each title.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.sortDescriptors = [FetchSortDescriptor(key: "title"), FetchSortDescriptor(key: "authorName")]
                var seen: Set<String> = []
                for book in try context.fetch(request) where !seen.insert(book.value(forKey: "title") as? String ?? "").inserted {
                    context.delete(book)
                }
                try context.save()
            }
        }
        custom.didMigrateHandler = { manager, _ in
            guard let container = manager.container else { throw CocoaError(.featureUnsupported) }
            journal.entries.append("did: \(container.managedObjectModel.entitiesByName.keys.sorted())")
            // Authors from the names the books kept.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                var authors: [String: ManagedObject] = [:]
                for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                    guard let name = book.value(forKey: "authorName") as? String else { continue }
                    let author = try authors[name] ?? EntityDescription.insertNewObject(forEntityName: "Author", into: context)
                    author.setValue(name, forKey: "name")
                    authors[name] = author
                    book.setValue(author, forKey: "writer")
                }
                try context.save()
            }
        }
        return StagedMigrationManager([lightweight, custom])
    }

    /// A store at `version` with these books (title, author), on `kind`'s store.
    private static func makeStore(_ kind: StoreKind, version: Int, books: [(String, String)]) throws -> TestStack {
        let stack = try TestStack(kind, model: model(version: version))
        let context = stack.newContext()
        try context.performAndWait {
            for (title, author) in books {
                let book = try EntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(author, forKey: "authorName")
            }
            try context.save()
        }
        return stack
    }

    /// A container of `model` on `stack`'s store, with `manager` as its staged migration.
    private static func container(on stack: TestStack, model: ManagedObjectModel, manager: StagedMigrationManager?) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Shelf", managedObjectModel: model)
        var description = PersistentStoreDescription(url: stack.storeURL)
        #if Postgres
        if let schema = stack.postgresSchema { description = try schema.description() }
        #endif
        if let manager { description.setOption(manager, forKey: PersistentStoreStagedMigrationManagerOptionKey) }
        container.persistentStoreDescriptions = [description]
        return container
    }

    private static let books = [("Dune", "Herbert"), ("Dune", "Herbert"), ("Emma", "Austen"), ("Persuasion", "Austen")]

    /// Each book's title, author's name (through the relationship) and pages.
    private static func shelf(_ container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            return try context.fetch(request).map { book in
                // V2's books have no writer.
                let hasWriter = book.entity.relationshipsByName["writer"] != nil
                let writer = hasWriter ? (book.value(forKey: "writer") as? ManagedObject)?.value(forKey: "name") as? String : nil
                return "\(book.value(forKey: "title") ?? "-") by \(writer ?? "-"), \(book.value(forKey: "pages") ?? "-") pages"
            }
        }
    }

    @Test(arguments: StoreKind.sqlStores)
    func aStoreMigratesFromV1ToV3ThroughACustomStage(kind: StoreKind) throws {
        let stack = try Self.makeStore(kind, version: 1, books: Self.books)
        // Without the stages, V3's new constraint meets the duplicates: refused, nothing lost.
        let plain = try Self.container(on: stack, model: Self.model(version: 3), manager: nil)
        #expect(throws: PersistentStoreError.self) { try plain.loadPersistentStores() }

        let journal = Journal()
        let manager = Self.manager(journal)
        let container = try Self.container(on: stack, model: Self.model(version: 3), manager: manager)
        try container.loadPersistentStores()
        #expect(journal.entries == ["will: [\"Book\"]", "did: [\"Author\", \"Book\"]"])
        #expect(manager.container == nil)
        #expect(try Self.shelf(container) == ["Dune by Herbert, 0 pages", "Emma by Austen, 0 pages", "Persuasion by Austen, 0 pages"])
        let context = container.newBackgroundContext()
        let authors = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Author")) }
        #expect(authors == 2)
    }

    @Test func storesRunOnlyTheStagesAfterTheirVersion() throws {
        // At V2: the custom stage alone.
        let atV2 = try Self.makeStore(.sqlite, version: 2, books: [("Emma", "Austen")])
        let journalV2 = Journal()
        let containerV2 = try Self.container(on: atV2, model: Self.model(version: 3), manager: Self.manager(journalV2))
        try containerV2.loadPersistentStores()
        #expect(journalV2.entries.count == 2)
        #expect(try Self.shelf(containerV2) == ["Emma by Austen, 0 pages"])

        // At V3 already, and a new store: no stage.
        for stack in [try Self.makeStore(.sqlite, version: 3, books: []), try TestStack(.sqlite, model: Self.model(version: 3))] {
            let journal = Journal()
            try Self.container(on: stack, model: Self.model(version: 3), manager: Self.manager(journal)).loadPersistentStores()
            #expect(journal.entries.isEmpty)
        }
        let fresh = TemporaryDirectory()
        let journal = Journal()
        let container = PersistentContainer(name: "Shelf", managedObjectModel: Self.model(version: 3))
        let description = PersistentStoreDescription(url: fresh.file("New.sqlite"))
        description.setOption(Self.manager(journal), forKey: PersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(journal.entries.isEmpty)

        // An in-memory store starts new at every load: nothing to migrate.
        let inMemory = PersistentContainer(name: "Shelf", managedObjectModel: Self.model(version: 3))
        let memoryDescription = PersistentStoreDescription()
        memoryDescription.type = InMemoryStoreType
        memoryDescription.setOption(Self.manager(journal), forKey: PersistentStoreStagedMigrationManagerOptionKey)
        inMemory.persistentStoreDescriptions = [memoryDescription]
        try inMemory.loadPersistentStores()
        #expect(journal.entries.isEmpty)
    }

    @Test func aHandlerThatThrowsStopsTheMigrationAndTheNextLoadResumes() throws {
        let stack = try Self.makeStore(.sqlite, version: 1, books: Self.books)
        let journal = Journal()
        journal.failWillMigrate = true
        let failing = try Self.container(on: stack, model: Self.model(version: 3), manager: Self.manager(journal))
        #expect(throws: CocoaError.self) { try failing.loadPersistentStores() }
        #expect(failing.persistentStoreCoordinator.persistentStores.isEmpty)
        // The lightweight stage was done: the store is at V2, with every book.
        let atV2 = try Self.container(on: stack, model: Self.model(version: 2), manager: nil)
        atV2.persistentStoreDescriptions[0].shouldMigrateStoreAutomatically = false
        try atV2.loadPersistentStores()
        #expect(try Self.shelf(atV2).count == 4)
        for store in atV2.persistentStoreCoordinator.persistentStores { try atV2.persistentStoreCoordinator.remove(store) }

        journal.failWillMigrate = false
        journal.entries = []
        let resumed = try Self.container(on: stack, model: Self.model(version: 3), manager: Self.manager(journal))
        try resumed.loadPersistentStores()
        #expect(journal.entries.count == 2)
        #expect(try Self.shelf(resumed).count == 3)
    }

    @Test func aReferenceWithAnotherChecksumIsRefusedBeforeAnythingMigrates() throws {
        let stack = try Self.makeStore(.sqlite, version: 2, books: [("Emma", "Austen")])
        let v2 = Self.model(version: 2), v3 = Self.model(version: 3)
        let stage = CustomMigrationStage(migratingFrom: ManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                         to: ManagedObjectModelReference(model: v3, versionChecksum: "0123abcd"))
        let container = try Self.container(on: stack, model: Self.model(version: 3), manager: StagedMigrationManager([stage]))
        let error = #expect(throws: PersistentStoreError.self) { try container.loadPersistentStores() }
        #expect(error?.code == PersistentStoreError.incompatibleModel && "\(error.map { "\($0)" } ?? "")".contains("0123abcd"))
        // The store is still at V2.
        let atV2 = try Self.container(on: stack, model: Self.model(version: 2), manager: nil)
        atV2.persistentStoreDescriptions[0].shouldMigrateStoreAutomatically = false
        try atV2.loadPersistentStores()
    }

    /// A stage names its versions by checksum, read before the models reach their containers:
    /// that freezes a model, which its container must still name.
    @Test func aModelWhoseChecksumWasReadIsStillNamedByItsContainer() throws {
        let entity = EntityDescription(name: "Book")
        entity.properties = [AttributeDescription(name: "title", type: .string)]
        let model = ManagedObjectModel(entities: [entity])
        let checksum = model.versionChecksum
        #expect(model.name == nil)
        let container = PersistentContainer(name: "Shelf", managedObjectModel: model)
        #expect(model.name == "Shelf")
        #expect(model.versionChecksum == checksum)
        let directory = TemporaryDirectory()
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.file("Shelf.sqlite"))]
        try container.loadPersistentStores()
    }

    @Test func aModelFileReferenceHasTheChecksumOfTheSameModelInCode() throws {
        let url = try ModelFiles.library
        let version = url.appendingPathComponent("Library 2.xcdatamodel")
        let reference = try ManagedObjectModelReference(fileURL: version, versionChecksum: libraryModelInCode().versionChecksum)
        #expect(reference.resolvedModel.versionChecksum == reference.versionChecksum)
        #expect(throws: ModelError.self) {
            try ManagedObjectModelReference(fileURL: url.appendingPathComponent("Missing.xcdatamodel"), versionChecksum: "")
        }
    }
}
