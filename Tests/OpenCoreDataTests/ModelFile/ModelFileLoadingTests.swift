import Foundation
import OpenCoreData
import Testing

/// Models load from the files Xcode's model editor writes, as they are: a port keeps its
/// `.xcdatamodeld` instead of rewriting it as code.
@Suite @MainActor struct ModelFileLoadingTests {
    private static let classes: [ManagedObject.Type] = [LibraryAuthor.self, LibraryBook.self, LibraryItem.self]

    /// The file's current version loads as the same model declared in code: every entity,
    /// property, option, index, constraint, configuration and template, the same classes, and
    /// the same store schema and hash.
    @Test func theFileLoadsAsTheSameModelDeclaredInCode() throws {
        let fromFile = try ManagedObjectModel(contentsOf: try ModelFiles.library, managedObjectClasses: Self.classes)
        let inCode = libraryModelInCode()
        let fileStack = try TestStack(.inMemory, model: fromFile)
        let codeStack = try TestStack(.inMemory, model: inCode)
        let fileFacts = modelFacts(fileStack.container.managedObjectModel)
        let codeFacts = modelFacts(codeStack.container.managedObjectModel)
        #expect(fileFacts.count == codeFacts.count)
        for (fileFact, codeFact) in zip(fileFacts, codeFacts) {
            #expect(fileFact == codeFact)
        }
        #expect(ModelSchema(model: fromFile).versionHash == ModelSchema(model: inCode).versionHash)
        #expect(ModelSchema(model: fromFile) == ModelSchema(model: inCode))
    }

    /// A store the file's model made opens with the model declared in code, without a
    /// migration, and the other way round: they are one schema.
    @Test func aStoreMadeByTheFileModelOpensWithTheCodeModel() throws {
        let stack = try TestStack(.sqlite, model: try ManagedObjectModel(contentsOf: try ModelFiles.library,
                                                                        managedObjectClasses: Self.classes))
        let context = stack.container.viewContext
        let author = LibraryAuthor(context: context)
        author.name = "Le Guin"
        let book = LibraryBook(context: context)
        book.title = "The Dispossessed"
        book.author = author
        try context.save()

        let reopened = try stack.reopened(model: libraryModelInCode())
        let books = try reopened.container.viewContext.all(LibraryBook.self)
        #expect(books.map(\.title) == ["The Dispossessed"])
        #expect(books.first?.author?.name == "Le Guin")
        let again = try reopened.reopened(model: try ManagedObjectModel(contentsOf: try ModelFiles.library,
                                                                        managedObjectClasses: Self.classes))
        #expect(try again.container.viewContext.all(LibraryAuthor.self).map(\.name) == ["Le Guin"])
    }

    /// Objects of a file's model keep every attribute type, default, relationship, inheritance
    /// and constraint through a save and a fresh context, on every store.
    @Test(arguments: StoreKind.withPostgres)
    func objectsOfAFileModelRoundTrip(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try ManagedObjectModel(contentsOf: try ModelFiles.library,
                                                                     managedObjectClasses: Self.classes))
        let context = stack.container.viewContext
        let author = LibraryAuthor(context: context)
        author.name = "Austen"
        #expect(author.born == Date(timeIntervalSinceReferenceDate: -3_155_673_600))
        let book = LibraryBook(context: context)
        #expect(book.title == "Untitled" && book.edition == 1 && book.inPrint && book.weight == 0.5)
        #expect(book.price == Decimal(string: "9.99"))
        book.title = "Emma"
        book.author = author
        book.pages = 474
        book.serial = Int64.max
        book.rating = 4.5
        book.website = URL(string: "https://example.org/emma")
        book.cover = Data([1, 2, 3])
        let identifier = UUID()
        book.identifier = identifier
        book.setValue("not saved", forKey: "scratch")
        ClasslessTag.insert(into: context, model: stack.container.managedObjectModel, label: "classic", book: book)
        try context.save()

        let fresh = stack.newContext()
        try fresh.performAndWait {
            let request = FetchRequest<LibraryBook>(entityName: "Book")
            let fetched = try fresh.fetch(request)
            #expect(fetched.count == 1)
            let emma = try #require(fetched.first)
            #expect(emma.title == "Emma" && emma.pages == 474 && emma.serial == Int64.max && emma.rating == 4.5)
            #expect(emma.website == URL(string: "https://example.org/emma") && emma.cover == Data([1, 2, 3]))
            #expect(emma.identifier == identifier && emma.author?.name == "Austen")
            #expect(emma.value(forKey: "scratch") == nil)
            let tags = emma.mutableSetValue(forKey: "tags")
            #expect(tags.count == 1)
            #expect(tags.objects.allSatisfy { type(of: $0) == ManagedObject.self })
            // Item is abstract, and Book its subentity: a fetch of Item finds the book.
            #expect(try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 1)
        }

        // Author.name is unique: a second Austen is a constraint conflict under the error policy.
        let second = LibraryAuthor(context: context)
        second.name = "Austen"
        #expect(throws: ObjectGraphError.self) { try context.save() }
    }

    /// The `.xcdatamodeld` gives the version `.xccurrentversion` names; a version's own
    /// `.xcdatamodel` gives that version. Both carry the package's name and their identifier.
    @Test func theCurrentVersionIsTheOneXcodeMarks() throws {
        let package = try ModelFiles.library
        let current = try ManagedObjectModel(contentsOf: package)
        #expect(current.name == "Library" && current.versionIdentifiers == ["2"])
        #expect(current.entitiesByName.keys.sorted() == ["Author", "Book", "Item", "Tag"])
        let first = try ManagedObjectModel(contentsOf: package.appendingPathComponent("Library.xcdatamodel"))
        #expect(first.name == "Library" && first.versionIdentifiers == ["1"])
        #expect(first.entitiesByName.keys.sorted() == ["Author", "Book"])
        let contents = try ManagedObjectModel(contentsOf: package.appendingPathComponent("Library 2.xcdatamodel/contents"))
        #expect(contents.name == "Library" && contents.versionIdentifiers == ["2"])
    }

    /// Classes are found by the name the file gives, in each form Xcode writes; without them the
    /// objects are plain managed objects, as Core Data falls back to NSManagedObject.
    @Test func entitiesAreBoundToTheClassesTheFileNames() throws {
        let bound = try ManagedObjectModel(contentsOf: try ModelFiles.library, managedObjectClasses: Self.classes)
        let byName = bound.entitiesByName
        #expect(byName["Author"]?.managedObjectClass == LibraryAuthor.self)
        #expect(byName["Book"]?.managedObjectClass == LibraryBook.self)
        #expect(byName["Item"]?.managedObjectClass == LibraryItem.self)
        #expect(byName["Tag"]?.managedObjectClass == ManagedObject.self)
        #expect(byName["Book"]?.managedObjectClassName == "OpenCoreDataTests.LibraryBook")

        // The test bundle is OpenCoreDataTests' resources, so its classes are found by name alone.
        let found = try ManagedObjectModel(contentsOf: try ModelFiles.library)
        #expect(found.entitiesByName["Author"]?.managedObjectClass == LibraryAuthor.self)
        #expect(found.entitiesByName["Item"]?.managedObjectClass == LibraryItem.self)

        let copied = TemporaryDirectory()
        let elsewhere = copied.file("Library.xcdatamodeld")
        try FileManager.default.copyItem(at: try ModelFiles.library, to: elsewhere)
        let unbound = try ManagedObjectModel(contentsOf: elsewhere)
        // ".LibraryAuthor" names no module, and a copy outside a resource bundle says none.
        #expect(unbound.entitiesByName["Author"]?.managedObjectClass == ManagedObject.self)
        // "OpenCoreDataTests.LibraryBook" does.
        #expect(unbound.entitiesByName["Book"]?.managedObjectClass == LibraryBook.self)
    }

    /// `PersistentContainer(name:)` finds the model among the resources, as Core Data's finds
    /// `name.momd` in the app's bundle; a name with no model fails when the stores load.
    @Test func theContainerFindsItsModelByName() throws {
        let directory = TemporaryDirectory()
        let container = PersistentContainer(name: "Library")
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.file("Library.sqlite"))]
        try container.loadPersistentStores()
        let author = LibraryAuthor(context: container.viewContext)
        author.name = "Morrison"
        try container.viewContext.save()
        #expect(container.managedObjectModel.versionIdentifiers == ["2"])

        let missing = PersistentContainer(name: "Nowhere")
        missing.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.file("Nowhere.sqlite"))]
        let error = #expect(throws: ModelError.self) { try missing.loadPersistentStores() }
        #expect(error?.code == ModelError.invalidModelFile)
        #expect(error?.message.contains("Nowhere.xcdatamodeld") == true)
        var reported: (any Error)?
        missing.loadPersistentStores { _, error in reported = error }
        #expect((reported as? ModelError)?.code == ModelError.invalidModelFile)
        #expect(!FileManager.default.fileExists(atPath: directory.file("Nowhere.sqlite").path))
    }

    /// Every model of a bundle merges into one; two that declare one entity do not.
    @Test func modelsOfABundleMerge() throws {
        let merged = try ManagedObjectModel.mergedModel(from: [Bundle.module], managedObjectClasses: Self.classes)
        #expect(merged.entitiesByName.keys.sorted() == ["Author", "Bed", "Book", "Item", "Journal", "Organism", "Plant", "Shelf", "Tag"])
        #expect(merged.entitiesByName["Book"]?.managedObjectClass == LibraryBook.self)
        #expect(merged.configurations == ["Cloud", "Local"])
        _ = try TestStack(.inMemory, model: merged)

        let directory = TemporaryDirectory()
        _ = try ModelFiles.write(#"<entity name="Shelf"><attribute name="room" attributeType="String"/></entity>"#,
                                 in: directory, name: "Rooms")
        try FileManager.default.copyItem(at: try ModelFiles.resource("Shelves.xcdatamodel"),
                                         to: directory.file("Shelves.xcdatamodel"))
        let bundle = try #require(Bundle(path: directory.url.path))
        let error = #expect(throws: ModelError.self) { _ = try ManagedObjectModel.mergedModel(from: [bundle]) }
        #expect(error?.message.contains("entity Shelf is declared by both") == true)
    }

    /// Templates fetch with their variables replaced; configurations list their entities.
    @Test func templatesAndConfigurationsComeFromTheFile() throws {
        let stack = try TestStack(.sqlite, model: try ManagedObjectModel(contentsOf: try ModelFiles.library,
                                                                        managedObjectClasses: Self.classes))
        let model = stack.container.managedObjectModel
        #expect(model.entities(forConfigurationName: "Local")?.map(\.description) == ["Tag"])
        #expect(model.entities(forConfigurationName: nil)?.count == 4)
        #expect(model.entities(forConfigurationName: "Elsewhere") == nil)
        let context = stack.container.viewContext
        for (title, name) in [("Beloved", "Morrison"), ("Emma", "Austen"), ("Jazz", "Morrison")] {
            let author = try context.fetch(FetchRequest<LibraryAuthor>(entityName: "Author"))
                .first { $0.name == name } ?? { let made = LibraryAuthor(context: context); made.name = name; return made }()
            let book = LibraryBook(context: context)
            book.title = title
            book.author = author
        }
        try context.save()
        let request = try #require(try model.fetchRequestFromTemplate(withName: "BooksByAuthor",
                                                                      substitutionVariables: ["NAME": "Morrison"]))
        #expect(request.fetchLimit == 50 && request.fetchBatchSize == 20)
        #expect(try context.fetch(request).compactMap { ($0 as? LibraryBook)?.title }.sorted() == ["Beloved", "Jazz"])
        #expect(model.fetchRequestTemplate(forName: "BooksByAuthor")?.predicate?.predicateFormat.contains("$NAME") == true)
        #expect(try model.fetchRequestFromTemplate(withName: "Missing", substitutionVariables: [:]) == nil)
    }
}

/// Tag has no class of its own (the file gives it none): its objects are made and linked by key,
/// as Core Data code does for an entity without a subclass.
enum ClasslessTag {
    static func insert(into context: ManagedObjectContext, model: ManagedObjectModel, label: String, book: LibraryBook) {
        guard let entity = model.entitiesByName["Tag"] else {
            Issue.record("the model has no Tag")
            return
        }
        let tag = ManagedObject(entity: entity, insertInto: context)
        tag.setValue(label, forKey: "label")
        tag.mutableSetValue(forKey: "books").add(book)
    }
}
