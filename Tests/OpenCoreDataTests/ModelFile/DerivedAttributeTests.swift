import Foundation
import OpenCoreData
import Testing

/// Derived attributes (`NSDerivedAttributeDescription`) from a model file, computed at save and
/// kept up to date when what they read changes one relationship away.
@Suite struct DerivedAttributeTests {
    final class Author: ManagedObject {
        @Managed var name: String
        @Managed var bookCount: Int64
        @Managed var totalPages: Int64
        @Managed var longest: Int32
        @Managed var sortName: String?
        @Managed var searchName: String?
        @Managed(inverse: "author") var books: Set<Book>
    }

    final class Book: ManagedObject {
        @Managed var title: String
        @Managed var pages: Int32
        @Managed var authorName: String?
        @Managed var savedAt: Date?
        @Managed(inverse: "books") var author: Author?
    }

    private static func model(in directory: TemporaryDirectory) throws -> ManagedObjectModel {
        let url = try ModelFiles.write(#"""
            <entity name="Author" representedClassName="Author" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="bookCount" attributeType="Integer 64" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
                <attribute name="totalPages" attributeType="Integer 64" derived="YES" derivationExpression="books.@sum.pages" usesScalarValueType="YES"/>
                <attribute name="longest" attributeType="Integer 32" derived="YES" derivationExpression="books.@max.pages" usesScalarValueType="YES"/>
                <attribute name="sortName" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/>
                <attribute name="searchName" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <attribute name="pages" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="authorName" optional="YES" attributeType="String" derived="YES" derivationExpression="author.name"/>
                <attribute name="savedAt" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            </entity>
            """#, in: directory)
        return try ManagedObjectModel(contentsOf: url, managedObjectClasses: [Author.self, Book.self])
    }

    @Test func theFileGivesDerivedAttributes() throws {
        let model = try Self.model(in: TemporaryDirectory())
        let count = try #require(model.entitiesByName["Author"]?.attributesByName["bookCount"] as? DerivedAttributeDescription)
        #expect(count.derivationExpression?.description == "books.@count")
        let lowered = try #require(model.entitiesByName["Author"]?.attributesByName["sortName"] as? DerivedAttributeDescription)
        #expect(lowered.derivationExpression == FetchExpression(forFunction: "lowercase:", arguments: [FetchExpression(forKeyPath: "name")]))
    }

    @Test(arguments: StoreKind.withPostgres)
    func valuesFollowWhatTheyAreDerivedFrom(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model(in: TemporaryDirectory()))
        let context = stack.newContext()
        let before = Date()
        try context.performAndWait {
            let austen = Author(context: context)
            austen.name = "Jane Austen"
            let brontë = Author(context: context)
            brontë.name = "Émily Brontë"
            for (title, pages, author) in [("Emma", 474, austen), ("Persuasion", 249, austen), ("Wuthering Heights", 416, brontë)] {
                let book = Book(context: context)
                book.title = title
                book.pages = Int32(pages)
                book.author = author
            }
            try context.save()
            #expect(austen.bookCount == 2 && austen.totalPages == 723 && austen.longest == 474)
            #expect(austen.sortName == "jane austen" && brontë.searchName == "emily bronte")
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let books = try reader.all(Book.self, sortedBy: "title")
            #expect(books.map(\.authorName) == ["Jane Austen", "Jane Austen", "Émily Brontë"])
            #expect(books.allSatisfy { ($0.savedAt ?? .distantPast) >= before })
            // Stored values: predicates and sorts use them as any attribute.
            let prolific = Author.fetchRequest()
            prolific.predicate = try FetchPredicate(format: "bookCount > 1")
            #expect(try reader.fetch(prolific).map(\.name) == ["Jane Austen"])
            let byPages = Author.fetchRequest()
            byPages.sortDescriptors = [FetchSortDescriptor(key: "totalPages")]
            #expect(try reader.fetch(byPages).map(\.name) == ["Émily Brontë", "Jane Austen"])
        }
        try context.performAndWait {
            let authors = try context.all(Author.self, sortedBy: "name")
            let (austen, brontë) = (authors[0], authors[1])
            let emma = try #require(austen.books.first { $0.title == "Emma" })
            // A change one relationship away: the book's pages, then the book's author.
            emma.pages = 500
            try context.save()
            #expect(austen.totalPages == 749 && austen.longest == 500)
            emma.author = brontë
            try context.save()
            #expect(austen.bookCount == 1 && brontë.bookCount == 2 && brontë.totalPages == 916)
            #expect(emma.authorName == "Émily Brontë")
            // The author renamed: the books' copies follow, and only the books that read the
            // author's name are saved, not the author's other books' save dates.
            let savedAt = try #require(austen.books.first?.savedAt)
            brontë.name = "Emily Brontë"
            austen.name = "Jane Austen"   // unchanged value, but a change of the author
            try context.save()
            #expect(brontë.books.allSatisfy { $0.authorName == "Emily Brontë" })
            #expect(austen.books.first?.savedAt == savedAt)
            // A deleted book leaves its author's count.
            context.delete(emma)
            try context.save()
            #expect(brontë.bookCount == 1 && brontë.totalPages == 416)
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let authors = try fresh.all(Author.self, sortedBy: "name")
            #expect(authors.map(\.bookCount) == [1, 1] && authors.map(\.totalPages) == [416, 249])
            #expect(try fresh.all(Book.self, sortedBy: "title").map(\.authorName) == ["Jane Austen", "Emily Brontë"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDerivedAttributeCannotBeSet(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model(in: TemporaryDirectory()))
        let context = stack.newContext()
        context.performAndWait {
            let author = Author(context: context)
            author.name = "Anon"
            author.bookCount = 7
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.failures.first?.key == "bookCount")
            #expect(error?.failures.first?.message.contains("Author.bookCount is derived") == true, "\(String(describing: error))")
        }
    }

    @Test func derivationsThatCannotBeComputedAreRefused() throws {
        func refusal(_ expression: String, type: AttributeType = .integer64) -> String {
            let author = EntityDescription(name: "Writer")
            let name = AttributeDescription(name: "name", type: .string)
            let derived = DerivedAttributeDescription(name: "derived", type: type)
            derived.derivationExpression = FetchExpression.keyPath(expression)
            let books = RelationshipDescription(name: "books", toMany: true)
            let book = EntityDescription(name: "Volume")
            let pages = AttributeDescription(name: "pages", type: .integer32)
            book.properties = [pages]
            books.destinationEntity = book
            author.properties = [name, derived, books]
            let model = ManagedObjectModel(entities: [author, book])
            let error = #expect(throws: ModelError.self) {
                try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .inMemory, at: nil)
            }
            return error?.message ?? ""
        }
        #expect(refusal("books.@count").contains("reads through books, which has no inverse"))
        #expect(refusal("name").contains("name is a string, the attribute a integer64"))
        #expect(refusal("books.@median.pages").contains("not a collection operator"))
        #expect(refusal("books.@count", type: .string).contains("counts into an integer attribute"))
        #expect(refusal("name.length").contains("name.length is not a key path through to-one relationships of Writer"))
    }
}
