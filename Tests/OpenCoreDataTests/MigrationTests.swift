import Foundation
import OpenCoreData
import Testing

// Lightweight migration against real SQLite files: a store saved with "version 1" of a model is
// reopened by a new container with "version 2". Additive changes must migrate in place and keep
// every object; anything else must be refused with `incompatibleModel` and leave the store as it
// was, so that the app can still open it with the model that made it.

/// The differences between version 1 of the library model and a later version.
enum LibraryChange: String, Hashable, Sendable {
    // Additive: migrate automatically.
    case addShelfEntity, addPublisherEntity, addNovelSubentity
    case addSubtitle, addDefaultedAttributes, requiredSubtitleWithDefault
    case addTranslator, addFavourites
    // Renamed: Book.pages becomes length (its renaming identifier says pages); the column follows.
    case renamePagesToLength
    // Renamed relationships: Book.author becomes writer, Author.books works (both sides of one
    // relationship), Note.subject topic (no inverse); the links follow.
    case renameRelationships
    // A rename with a type change: refused as the type change is.
    case renamePagesToLengthAsString
    // Index-only: not a schema change at all.
    case titleIndex, changedTitleIndex
    // Incompatible: refused.
    case removeNoteEntity, removePages, pagesAsString, addRequiredISBN, requiredSubtitleWithoutDefault
    case noteSubjectIsBook, noteSubjectIsToMany, removeNoteSubject, addRequiredEditor, noteIsABook
    // Renamed entities: Note becomes Memo, Author becomes Writer (the destination of Book.author
    // and Note.subject, and the owner of favourites' join table); the rows and links follow.
    case renameNoteToMemo, renameAuthorToWriter
    // A renamed subentity: Novel becomes Romance (its columns in Book's table follow).
    case renameNovelToRomance
}

/// A small library model built in code, the way Core Data apps describe model versions.
///
/// Version 1 (no changes): `Author(name, born, books)`, `Book(title, pages, author)` and
/// `Note(text, subject → Author)`. Each call builds new descriptions, because a model freezes once
/// a coordinator has used it.
func libraryModel(_ changes: Set<LibraryChange> = []) -> ManagedObjectModel {
    let author = EntityDescription(name: changes.contains(.renameAuthorToWriter) ? "Writer" : "Author")
    if changes.contains(.renameAuthorToWriter) { author.renamingIdentifier = "Author" }
    let book = EntityDescription(name: "Book")
    var entities = [author, book]

    let renamesRelationships = changes.contains(.renameRelationships)
    let books = RelationshipDescription(name: renamesRelationships ? "works" : "books", destination: book, toMany: true)
    let writtenBy = RelationshipDescription(name: renamesRelationships ? "writer" : "author", destination: author)
    if renamesRelationships {
        books.renamingIdentifier = "books"
        writtenBy.renamingIdentifier = "author"
    }
    books.inverseRelationship = writtenBy
    writtenBy.inverseRelationship = books

    var authorProperties: [PropertyDescription] = [
        AttributeDescription(name: "name", type: .string, isOptional: false, isIndexed: changes.contains(.titleIndex)),
        AttributeDescription(name: "born", type: .integer32),
        books,
    ]
    var bookProperties: [PropertyDescription] = [
        AttributeDescription(name: "title", type: .string, isOptional: false),
        writtenBy,
    ]
    if changes.contains(.renamePagesToLength) || changes.contains(.renamePagesToLengthAsString) {
        let asString = changes.contains(.renamePagesToLengthAsString)
        let length = AttributeDescription(name: "length", type: asString ? .string : .integer32, isOptional: false,
                                          defaultValue: asString ? "0" : 0)
        length.renamingIdentifier = "pages"
        bookProperties.append(length)
    } else if changes.contains(.pagesAsString) {
        bookProperties.append(AttributeDescription(name: "pages", type: .string, isOptional: false, defaultValue: "0"))
    } else if !changes.contains(.removePages) {
        bookProperties.append(AttributeDescription(name: "pages", type: .integer32, isOptional: false, defaultValue: 0))
    }
    if changes.contains(.addSubtitle) {
        bookProperties.append(AttributeDescription(name: "subtitle", type: .string))
    }
    if changes.contains(.requiredSubtitleWithDefault) {
        bookProperties.append(AttributeDescription(name: "subtitle", type: .string, isOptional: false, defaultValue: "untitled"))
    }
    if changes.contains(.addDefaultedAttributes) {
        bookProperties += [
            AttributeDescription(name: "rating", type: .integer16, isOptional: false, defaultValue: 3),
            AttributeDescription(name: "format", type: .string, defaultValue: "paper'back"),
            AttributeDescription(name: "inPrint", type: .boolean, isOptional: false, defaultValue: true),
            AttributeDescription(name: "price", type: .double, isOptional: false, defaultValue: 9.5),
            AttributeDescription(name: "released", type: .date, defaultValue: Date(timeIntervalSinceReferenceDate: 86_400)),
        ]
    }
    if changes.contains(.requiredSubtitleWithoutDefault) {
        bookProperties.append(AttributeDescription(name: "subtitle", type: .string, isOptional: false))
    }
    if changes.contains(.addRequiredISBN) {
        bookProperties.append(AttributeDescription(name: "isbn", type: .string, isOptional: false))
    }
    if changes.contains(.addTranslator) {
        // A to-one without an inverse: a new column on Book.
        bookProperties.append(RelationshipDescription(name: "translator", destination: author))
    }
    if changes.contains(.addRequiredEditor) {
        bookProperties.append(RelationshipDescription(name: "editor", destination: author, isOptional: false))
    }
    if changes.contains(.addFavourites) {
        // A to-many without an inverse: a new join table.
        authorProperties.append(RelationshipDescription(name: "favourites", destination: book, toMany: true))
    }
    if changes.contains(.titleIndex) {
        book.indexes = [FetchIndexDescription(name: "byTitle", elements: [FetchIndexElementDescription(propertyName: "title")])]
    }
    if changes.contains(.changedTitleIndex) {
        // Same index name, different columns.
        book.indexes = [FetchIndexDescription(name: "byTitle", elements: [
            FetchIndexElementDescription(propertyName: "pages", ascending: false),
            FetchIndexElementDescription(propertyName: "title"),
        ])]
    }
    if !changes.contains(.removeNoteEntity) {
        let note = EntityDescription(name: changes.contains(.renameNoteToMemo) ? "Memo" : "Note")
        if changes.contains(.renameNoteToMemo) { note.renamingIdentifier = "Note" }
        note.properties = [AttributeDescription(name: "text", type: .string)]
        if !changes.contains(.removeNoteSubject) {
            let subject = RelationshipDescription(name: renamesRelationships ? "topic" : "subject",
                                                  destination: changes.contains(.noteSubjectIsBook) ? book : author,
                                                  toMany: changes.contains(.noteSubjectIsToMany))
            if renamesRelationships { subject.renamingIdentifier = "subject" }
            note.properties.append(subject)
        }
        if changes.contains(.noteIsABook) {
            book.subentities.append(note)
        }
        entities.append(note)
    }
    if changes.contains(.addShelfEntity) {
        let shelf = EntityDescription(name: "Shelf")
        shelf.properties = [AttributeDescription(name: "label", type: .string, isOptional: false)]
        entities.append(shelf)
    }
    if changes.contains(.addPublisherEntity) {
        // A new entity linked both ways to an existing one.
        let publisher = EntityDescription(name: "Publisher")
        let published = RelationshipDescription(name: "books", destination: book, toMany: true)
        let publishedBy = RelationshipDescription(name: "publisher", destination: publisher)
        published.inverseRelationship = publishedBy
        publishedBy.inverseRelationship = published
        publisher.properties = [AttributeDescription(name: "name", type: .string, isOptional: false), published]
        bookProperties.append(publishedBy)
        entities.append(publisher)
    }
    if changes.contains(.addNovelSubentity) {
        // A new entity inheriting from an existing one: new columns in the existing table.
        let novel = EntityDescription(name: changes.contains(.renameNovelToRomance) ? "Romance" : "Novel")
        if changes.contains(.renameNovelToRomance) { novel.renamingIdentifier = "Novel" }
        novel.properties = [AttributeDescription(name: "genre", type: .string)]
        book.subentities.append(novel)
        entities.append(novel)
    }
    author.properties = authorProperties
    book.properties = bookProperties
    return ManagedObjectModel(entities: entities)
}

/// Opens (or creates) the library store in `directory`, as a freshly launched app would; another
/// program opens it under another container `name`.
func openLibrary(in directory: TemporaryDirectory, model: ManagedObjectModel, name: String = "Library",
                 configure: (PersistentStoreDescription) -> Void = { _ in }) throws -> PersistentContainer {
    let container = PersistentContainer(name: name, managedObjectModel: model)
    let description = PersistentStoreDescription(url: directory.file("Library.sqlite"))
    configure(description)
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

extension PersistentContainer {
    /// Inserts an object of a code-built entity and sets its values by key.
    @discardableResult
    func insert(_ entityName: String, _ values: [String: Any], into context: ManagedObjectContext) throws -> ManagedObject {
        let entity = try #require(managedObjectModel.entitiesByName[entityName], "no entity \(entityName)")
        let object = ManagedObject(entity: entity, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    /// Every object of an entity (subentities included), in primary key order.
    func objects(_ entityName: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: entityName))
    }
}

/// Version 1's data: two authors, three books, a note.
func seedLibrary(_ container: PersistentContainer) throws {
    let context = container.newBackgroundContext()
    try context.performAndWait {
        let herbert = try container.insert("Author", ["name": "Frank Herbert", "born": 1920], into: context)
        let leGuin = try container.insert("Author", ["name": "Ursula K. Le Guin", "born": 1929], into: context)
        try container.insert("Book", ["title": "Dune", "pages": 412, "author": herbert], into: context)
        try container.insert("Book", ["title": "Children of Dune", "pages": 444, "author": herbert], into: context)
        try container.insert("Book", ["title": "The Dispossessed", "pages": 387, "author": leGuin], into: context)
        try container.insert("Note", ["text": "reread", "subject": leGuin], into: context)
        try context.save()
    }
}

/// The links of a library whose relationships were renamed (``LibraryChange/renameRelationships``),
/// read through the new names.
func renamedLibraryContents(_ container: PersistentContainer) throws -> [String] {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        var lines: [String] = []
        for author in try container.objects("Author", in: context) {
            let titles = (author.value(forKey: "works") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "title") as? String }
            lines.append("\(author.value(forKey: "name") as? String ?? "nil") wrote \(titles.sorted().joined(separator: ", "))")
        }
        for book in try container.objects("Book", in: context) {
            let writer = (book.value(forKey: "writer") as? ManagedObject)?.value(forKey: "name") as? String ?? "nil"
            lines.append("\(book.value(forKey: "title") as? String ?? "nil") by \(writer)")
        }
        for note in try container.objects("Note", in: context) {
            let topic = (note.value(forKey: "topic") as? ManagedObject)?.value(forKey: "name") as? String ?? "nil"
            lines.append("\(note.value(forKey: "text") as? String ?? "nil"), about \(topic)")
        }
        return lines
    }
}

/// What ``seedLibrary(_:)`` wrote, as ``libraryContents(_:)`` describes it.
let seededContents = [
    "Author Frank Herbert (1920): Children of Dune, Dune",
    "Author Ursula K. Le Guin (1929): The Dispossessed",
    "Book Children of Dune, 444 pages, by Frank Herbert",
    "Book Dune, 412 pages, by Frank Herbert",
    "Book The Dispossessed, 387 pages, by Ursula K. Le Guin",
    "Note reread, about Ursula K. Le Guin",
]

/// Every version-1 object and link, read from the store through a fresh context, one line each.
/// Only version-1 keys are read, so any later version that keeps them can be checked with it.
func libraryContents(_ container: PersistentContainer) throws -> [String] {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        var lines: [String] = []
        for author in try container.objects("Author", in: context) {
            let titles = (author.value(forKey: "books") as? Set<ManagedObject> ?? [])
                .compactMap { $0.value(forKey: "title") as? String }.sorted()
            let born = (author.value(forKey: "born") as? Int).map(String.init) ?? "nil"
            lines.append("Author \(author.value(forKey: "name") as? String ?? "nil") (\(born)): \(titles.joined(separator: ", "))")
        }
        for book in try container.objects("Book", in: context) {
            let author = (book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String ?? "nil"
            let pages = (book.value(forKey: "pages") as? Int).map(String.init) ?? "nil"
            lines.append("\(book.entity.name ?? "?") \(book.value(forKey: "title") as? String ?? "nil"), \(pages) pages, by \(author)")
        }
        for note in try container.objects("Note", in: context) {
            let subject = note.value(forKey: "subject") as? ManagedObject
            let about = subject?.value(forKey: subject?.entity.name == "Author" ? "name" : "title") as? String ?? "nil"
            lines.append("Note \(note.value(forKey: "text") as? String ?? "nil"), about \(about)")
        }
        return lines.sorted()
    }
}

/// A version-2 change that must be refused, and the words the error must use for it.
struct RefusedChange: Sendable, CustomTestStringConvertible {
    let changes: Set<LibraryChange>
    let fragments: [String]
    /// The version the store is made with; version 1 unless a test needs something to change.
    var from: Set<LibraryChange> = []

    var testDescription: String { changes.map(\.rawValue).sorted().joined(separator: "+") }
}

@Suite struct MigrationTests {
    // MARK: Unchanged model

    @Test func reopeningWithTheSameModelKeepsEverything() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        for _ in 0..<2 {
            let reopened = try openLibrary(in: directory, model: libraryModel())
            #expect(try libraryContents(reopened) == seededContents)
        }
    }

    // MARK: Additive changes

    @Test func addingAnEntityMigratesAndTheNewEntityWorks() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                #expect(try migrated.objects("Shelf", in: context).isEmpty)
                try migrated.insert("Shelf", ["label": "Science fiction"], into: context)
                // New objects of old entities still get fresh keys after the migration.
                try migrated.insert("Book", ["title": "Lathe of Heaven", "pages": 184], into: context)
                try context.save()
            }
        }
        // The migration was recorded: the next launch opens without migrating again.
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]))
        let context = relaunched.newBackgroundContext()
        try context.performAndWait { () throws in
            #expect(try relaunched.objects("Shelf", in: context).compactMap { $0.value(forKey: "label") as? String } == ["Science fiction"])
            #expect(try relaunched.objects("Book", in: context).count == 4)
        }
    }

    @Test func addingAnEntityRelatedToAnExistingOneMigrates() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addPublisherEntity]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                let books = try migrated.objects("Book", in: context)
                #expect(books.allSatisfy { $0.value(forKey: "publisher") == nil })
                let ace = try migrated.insert("Publisher", ["name": "Ace"], into: context)
                for book in books where (book.value(forKey: "title") as? String)?.contains("Dune") == true {
                    book.setValue(ace, forKey: "publisher")
                }
                try context.save()
            }
        }
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addPublisherEntity]))
        let context = relaunched.newBackgroundContext()
        try context.performAndWait {
            let publisher = try #require(try relaunched.objects("Publisher", in: context).first)
            let titles = (publisher.value(forKey: "books") as? Set<ManagedObject> ?? [])
                .compactMap { $0.value(forKey: "title") as? String }.sorted()
            #expect(titles == ["Children of Dune", "Dune"])
        }
    }

    @Test func addingASubentityMigratesAndOldRowsKeepTheirEntity() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addNovelSubentity]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                try migrated.insert("Novel", ["title": "The Word for World Is Forest", "pages": 189, "genre": "sf"], into: context)
                try context.save()
            }
        }
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addNovelSubentity]))
        let context = relaunched.newBackgroundContext()
        try context.performAndWait {
            #expect(try relaunched.objects("Book", in: context).count == 4)
            let novels = try relaunched.objects("Novel", in: context)
            #expect(novels.map { $0.value(forKey: "genre") as? String } == ["sf"])
            #expect(novels.first?.value(forKey: "pages") as? Int == 189)
        }
    }

    /// An attribute renamed with a renaming identifier keeps its values under the new name: the
    /// store renames the column (Core Data's lightweight migration honours the identifier too).
    @Test func renamingAnAttributeKeepsItsValues() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        for launch in 1...2 {
            let migrated = try openLibrary(in: directory, model: libraryModel([.renamePagesToLength]))
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                let books = try migrated.objects("Book", in: context)
                let lengths = books.map { "\($0.value(forKey: "title") as? String ?? "?") \($0.value(forKey: "length") as? Int32 ?? -1)" }
                let expected = launch == 1 ? ["Dune 412", "Children of Dune 444", "The Dispossessed 387"]
                    : ["Dune 412", "Children of Dune 444", "The Dispossessed 387", "Always Coming Home 523"]
                #expect(lengths == expected, "launch \(launch)")
                if launch == 1 {
                    try migrated.insert("Book", ["title": "Always Coming Home", "length": Int32(523)], into: context)
                    try context.save()
                }
            }
        }
        // The old model no longer opens it: its pages are now length.
        #expect(throws: PersistentStoreError.self) { _ = try openLibrary(in: directory, model: libraryModel()) }
    }

    @Test func renamingRelationshipsKeepsTheirLinks() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let migrated = try openLibrary(in: directory, model: libraryModel([.renameRelationships]))
        #expect(try renamedLibraryContents(migrated).sorted() == [
            "Frank Herbert wrote Children of Dune, Dune",
            "Ursula K. Le Guin wrote The Dispossessed",
            "Children of Dune by Frank Herbert", "Dune by Frank Herbert", "The Dispossessed by Ursula K. Le Guin",
            "reread, about Ursula K. Le Guin",
        ].sorted())
        // The old model no longer opens it.
        #expect(throws: PersistentStoreError.self) { _ = try openLibrary(in: directory, model: libraryModel()) }
    }

    @Test func renamingEntitiesKeepsTheirRowsAndLinks() throws {
        let directory = TemporaryDirectory()
        let original = try openLibrary(in: directory, model: libraryModel([.addFavourites]))
        try seedLibrary(original)
        let context = original.newBackgroundContext()
        try context.performAndWait {
            let herbert = try #require(try original.objects("Author", in: context).first { $0.value(forKey: "name") as? String == "Frank Herbert" })
            herbert.setValue(Set(try original.objects("Book", in: context)), forKey: "favourites")
            try context.save()
        }
        for launch in 1...2 {
            let renamed = try openLibrary(in: directory, model: libraryModel([.addFavourites, .renameAuthorToWriter, .renameNoteToMemo]))
            let context = renamed.newBackgroundContext()
            let lines = try context.performAndWait {
                var lines: [String] = []
                for writer in try renamed.objects("Writer", in: context) {
                    let books = (writer.value(forKey: "books") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "title") as? String }
                    let favourites = (writer.value(forKey: "favourites") as? Set<ManagedObject> ?? []).count
                    lines.append("\(writer.value(forKey: "name") as? String ?? "nil") (\(writer.value(forKey: "born") as? Int ?? 0)): \(books.sorted()), \(favourites) favourites")
                }
                for book in try renamed.objects("Book", in: context) {
                    let writer = (book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String ?? "nil"
                    lines.append("\(book.value(forKey: "title") as? String ?? "nil") by \(writer)")
                }
                for memo in try renamed.objects("Memo", in: context) {
                    let subject = (memo.value(forKey: "subject") as? ManagedObject)?.value(forKey: "name") as? String ?? "nil"
                    lines.append("memo \(memo.value(forKey: "text") as? String ?? "nil") about \(subject)")
                }
                if launch == 1 {
                    // New rows take keys after the old ones, under the new names.
                    let writer = try renamed.insert("Writer", ["name": "Octavia E. Butler", "born": 1947], into: context)
                    try renamed.insert("Memo", ["text": "lend", "subject": writer], into: context)
                    try context.save()
                }
                return lines.sorted()
            }
            var expected = [
                "Children of Dune by Frank Herbert", "Dune by Frank Herbert",
                "Frank Herbert (1920): [\"Children of Dune\", \"Dune\"], 3 favourites",
                "The Dispossessed by Ursula K. Le Guin",
                "Ursula K. Le Guin (1929): [\"The Dispossessed\"], 0 favourites",
                "memo reread about Ursula K. Le Guin",
            ]
            if launch == 2 { expected += ["Octavia E. Butler (1947): [], 0 favourites", "memo lend about Octavia E. Butler"] }
            #expect(lines == expected.sorted(), "launch \(launch)")
        }
        // The old model no longer opens it.
        #expect(throws: PersistentStoreError.self) { _ = try openLibrary(in: directory, model: libraryModel([.addFavourites])) }
    }

    @Test func renamingASubentityKeepsItsColumns() throws {
        let directory = TemporaryDirectory()
        let original = try openLibrary(in: directory, model: libraryModel([.addNovelSubentity]))
        try seedLibrary(original)
        let context = original.newBackgroundContext()
        try context.performAndWait {
            try original.insert("Novel", ["title": "Kindred", "pages": 264, "genre": "speculative"], into: context)
            try context.save()
        }
        let renamed = try openLibrary(in: directory, model: libraryModel([.addNovelSubentity, .renameNovelToRomance]))
        let renamedContext = renamed.newBackgroundContext()
        let romances = try renamedContext.performAndWait {
            try renamed.objects("Romance", in: renamedContext).map { "\($0.value(forKey: "title") ?? "-") \($0.value(forKey: "genre") ?? "-")" }
        }
        #expect(romances == ["Kindred speculative"])
        #expect(try libraryContents(renamed).filter { $0.hasPrefix("Book") || $0.hasPrefix("Romance") }.count == 4)
    }

    @Test func addingAnOptionalAttributeMigratesAndOldRowsReadNil() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addSubtitle]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                let books = try migrated.objects("Book", in: context)
                #expect(books.count == 3)
                #expect(books.allSatisfy { $0.value(forKey: "subtitle") == nil })
                let dune = try #require(books.first { $0.value(forKey: "title") as? String == "Dune" })
                dune.setValue("Book One", forKey: "subtitle")
                try context.save()
            }
        }
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addSubtitle]))
        let context = relaunched.newBackgroundContext()
        try context.performAndWait {
            let subtitles = try relaunched.objects("Book", in: context).compactMap { $0.value(forKey: "subtitle") as? String }
            #expect(subtitles == ["Book One"])
        }
    }

    @Test func addingAttributesWithDefaultsMigratesAndOldRowsReadTheDefaults() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let migrated = try openLibrary(in: directory, model: libraryModel([.addDefaultedAttributes]))
        #expect(try libraryContents(migrated) == seededContents)
        let context = migrated.newBackgroundContext()
        try context.performAndWait {
            let books = try migrated.objects("Book", in: context)
            #expect(books.count == 3)
            for book in books {
                #expect(book.value(forKey: "rating") as? Int == 3)
                #expect(book.value(forKey: "format") as? String == "paper'back")
                #expect(book.value(forKey: "inPrint") as? Bool == true)
                #expect(book.value(forKey: "price") as? Double == 9.5)
                #expect(book.value(forKey: "released") as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
            }
            // Old objects can be changed and saved: their required new attributes have values.
            books.first?.setValue(5, forKey: "rating")
            try context.save()
        }
    }

    @Test func makingAnOptionalAttributeRequiredWithADefaultFillsStoredNils() throws {
        let directory = TemporaryDirectory()
        do {
            let v1 = try openLibrary(in: directory, model: libraryModel([.addSubtitle]))
            try seedLibrary(v1)
        }
        let migrated = try openLibrary(in: directory, model: libraryModel([.requiredSubtitleWithDefault]))
        let context = migrated.newBackgroundContext()
        try context.performAndWait {
            let books = try migrated.objects("Book", in: context)
            #expect(books.map { $0.value(forKey: "subtitle") as? String } == ["untitled", "untitled", "untitled"])
            // An old object must stay savable under the new rule.
            books.first?.setValue(500, forKey: "pages")
            #expect(throws: Never.self) { try context.save() }
        }
    }

    @Test func addingAnOptionalToOneRelationshipMigrates() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addTranslator]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                let books = try migrated.objects("Book", in: context)
                #expect(books.allSatisfy { $0.value(forKey: "translator") == nil })
                let leGuin = try #require(try migrated.objects("Author", in: context).last)
                books.first?.setValue(leGuin, forKey: "translator")
                try context.save()
            }
        }
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addTranslator]))
        #expect(try libraryContents(relaunched) == seededContents)
        let context = relaunched.newBackgroundContext()
        try context.performAndWait {
            let translators = try relaunched.objects("Book", in: context)
                .compactMap { ($0.value(forKey: "translator") as? ManagedObject)?.value(forKey: "name") as? String }
            #expect(translators == ["Ursula K. Le Guin"])
        }
    }

    @Test func addingAToManyRelationshipMigrates() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addFavourites]))
            #expect(try libraryContents(migrated) == seededContents)
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                let authors = try migrated.objects("Author", in: context)
                #expect(authors.allSatisfy { ($0.value(forKey: "favourites") as? Set<ManagedObject>)?.isEmpty == true })
                let books = try migrated.objects("Book", in: context)
                authors.first?.setValue(Set(books), forKey: "favourites")
                try context.save()
            }
        }
        let relaunched = try openLibrary(in: directory, model: libraryModel([.addFavourites]))
        #expect(try libraryContents(relaunched) == seededContents)
        let context = relaunched.newBackgroundContext()
        try context.performAndWait {
            let herbert = try #require(try relaunched.objects("Author", in: context).first)
            #expect((herbert.value(forKey: "favourites") as? Set<ManagedObject>)?.count == 3)
        }
    }

    @Test func severalAdditiveChangesMigrateTogether() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let all: Set<LibraryChange> = [.addShelfEntity, .addPublisherEntity, .addNovelSubentity, .addSubtitle,
                                       .addDefaultedAttributes, .addTranslator, .addFavourites, .titleIndex]
        let migrated = try openLibrary(in: directory, model: libraryModel(all))
        #expect(try libraryContents(migrated) == seededContents)
    }

    @Test func aReadOnlyStoreIsNotMigrated() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.addSubtitle])) { $0.isReadOnly = true }
        }
        #expect(error?.code == PersistentStoreError.incompatibleModel)
        #expect(error?.message.contains("read-only") == true, "\(String(describing: error))")
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel())) == seededContents)
    }

    // MARK: Automatic migration turned off

    @Test func automaticMigrationOffRefusesEvenAnAdditiveChange() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.addSubtitle])) { $0.shouldMigrateStoreAutomatically = false }
        }
        #expect(error?.code == PersistentStoreError.incompatibleModel)
        #expect(error?.message.contains("shouldMigrateStoreAutomatically") == true, "\(String(describing: error))")
        #expect(error?.message.contains("subtitle") == true, "\(String(describing: error))")
        // Nothing was migrated: version 1 still opens, and version 2 still can when allowed to.
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel())) == seededContents)
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel([.addSubtitle]))) == seededContents)
    }

    @Test func automaticMigrationOffStillOpensAnUnchangedStore() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let reopened = try openLibrary(in: directory, model: libraryModel()) { $0.shouldMigrateStoreAutomatically = false }
        #expect(try libraryContents(reopened) == seededContents)
    }

    // MARK: Incompatible changes

    static let refusedChanges = [
        RefusedChange(changes: [.removeNoteEntity], fragments: ["entity Note", "removed"]),
        RefusedChange(changes: [.removePages], fragments: ["Book.pages", "removed"]),
        RefusedChange(changes: [.pagesAsString], fragments: ["Book.pages", "type", "integer32", "string"]),
        RefusedChange(changes: [.renamePagesToLengthAsString], fragments: ["Book.pages", "type", "integer32", "string"]),
        RefusedChange(changes: [.addRequiredISBN], fragments: ["Book.isbn", "required", "default"]),
        RefusedChange(changes: [.requiredSubtitleWithoutDefault], fragments: ["Book.subtitle", "required"], from: [.addSubtitle]),
        RefusedChange(changes: [.noteSubjectIsBook], fragments: ["Note.subject", "destination"]),
        RefusedChange(changes: [.noteSubjectIsToMany], fragments: ["Note.subject", "cardinality"]),
        RefusedChange(changes: [.removeNoteSubject], fragments: ["Note.subject", "removed"]),
        RefusedChange(changes: [.addRequiredEditor], fragments: ["Book.editor", "required"]),
        RefusedChange(changes: [.noteIsABook], fragments: ["Note", "inherits from Book"]),
        // An incompatible change is refused even when it comes with additive ones.
        RefusedChange(changes: [.addShelfEntity, .addSubtitle, .removePages], fragments: ["Book.pages"]),
    ]

    @Test(arguments: refusedChanges)
    func incompatibleChangeIsRefusedAndNothingIsLost(_ refused: RefusedChange) throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel(refused.from)))
        for attempt in 1...2 {
            let error = #expect(throws: PersistentStoreError.self, "attempt \(attempt)") {
                _ = try openLibrary(in: directory, model: libraryModel(refused.changes))
            }
            #expect(error?.code == PersistentStoreError.incompatibleModel)
            #expect(error?.url?.lastPathComponent == "Library.sqlite")
            for fragment in refused.fragments {
                #expect(error?.message.contains(fragment) == true, "message lacks '\(fragment)': \(String(describing: error))")
            }
        }
        // The refused open changed nothing: version 1 still opens, with everything in it.
        let original = try openLibrary(in: directory, model: libraryModel(refused.from))
        #expect(try libraryContents(original) == seededContents)
        // And it still saves.
        let context = original.newBackgroundContext()
        try context.performAndWait {
            try original.insert("Book", ["title": "Always Coming Home", "pages": 523], into: context)
            try context.save()
        }
    }

    @Test func openingAMigratedStoreWithTheOldModelIsRefused() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            let migrated = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]))
            let context = migrated.newBackgroundContext()
            try context.performAndWait {
                try migrated.insert("Shelf", ["label": "Poetry"], into: context)
                try context.save()
            }
        }
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel())
        }
        #expect(error?.code == PersistentStoreError.incompatibleModel)
        #expect(error?.message.contains("entity Shelf") == true, "\(String(describing: error))")
        let migrated = try openLibrary(in: directory, model: libraryModel([.addShelfEntity]))
        #expect(try libraryContents(migrated) == seededContents)
        let context = migrated.newBackgroundContext()
        try context.performAndWait { () throws in
            #expect(try migrated.objects("Shelf", in: context).count == 1)
        }
    }

    @Test func incompatibleModelMatchesInACatchClause() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        var caught = false
        do {
            _ = try openLibrary(in: directory, model: libraryModel([.removeNoteEntity]))
        } catch PersistentStoreError.incompatibleModel {
            caught = true
        }
        #expect(caught)
    }

    @Test func theErrorListsEveryDifference() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        let error = #expect(throws: PersistentStoreError.self) {
            _ = try openLibrary(in: directory, model: libraryModel([.removeNoteEntity, .pagesAsString, .addRequiredISBN]))
        }
        let message = error?.message ?? ""
        for fragment in ["entity Note", "Book.pages", "Book.isbn"] {
            #expect(message.contains(fragment), "message lacks '\(fragment)': \(message)")
        }
    }

    // MARK: Indexes

    @Test func addingAnIndexIsNotAnIncompatibleChange() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel()))
        do {
            // Even with automatic migration off: an index is not part of the store's schema.
            let indexed = try openLibrary(in: directory, model: libraryModel([.titleIndex])) { $0.shouldMigrateStoreAutomatically = false }
            #expect(try libraryContents(indexed) == seededContents)
            let context = indexed.newBackgroundContext()
            try context.performAndWait { () throws in
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.sortDescriptors = [FetchSortDescriptor(key: "title")]
                #expect(try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
                        == ["Children of Dune", "Dune", "The Dispossessed"])
            }
        }
        if SQLiteShell.isAvailable {
            let indexes = try SQLiteShell.run("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name",
                                              on: directory.file("Library.sqlite"))
            #expect(indexes.contains("_ocd_index_Book_byTitle"), "\(indexes)")
            #expect(indexes.contains("_ocd_index_Author_name"), "\(indexes)")
        }
        // Dropping the index again is no incompatibility either.
        #expect(try libraryContents(try openLibrary(in: directory, model: libraryModel())) == seededContents)
        if SQLiteShell.isAvailable {
            let indexes = try SQLiteShell.run("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name",
                                              on: directory.file("Library.sqlite"))
            #expect(!indexes.contains("_ocd_index_Book_byTitle"), "\(indexes)")
        }
    }

    /// An index redefined under the same name must be rebuilt, or fetches keep using the old one.
    @Test(.enabled(if: SQLiteShell.isAvailable, "needs /usr/bin/sqlite3 to read the index definition"))
    func changingAnIndexKeepsItsNameButRebuildsIt() throws {
        let directory = TemporaryDirectory()
        try seedLibrary(try openLibrary(in: directory, model: libraryModel([.titleIndex])))
        let reopened = try openLibrary(in: directory, model: libraryModel([.changedTitleIndex]))
        #expect(try libraryContents(reopened) == seededContents)
        let definition = try SQLiteShell.run("SELECT sql FROM sqlite_master WHERE name = '_ocd_index_Book_byTitle'",
                                             on: directory.file("Library.sqlite"))
        #expect(definition.contains("\"pages\" DESC"), "index still has its old definition: \(definition)")
    }
}
