import Foundation
import OpenCoreData

/// ModelFiles/Library.xcdatamodeld's current version, declared in code as an app without a model
/// file would: what the file must load as.
func libraryModelInCode() -> ManagedObjectModel {
    let item = EntityDescription(name: "Item")
    item.managedObjectClass = LibraryItem.self
    item.isAbstract = true
    item.userInfo = ["origin": "catalogue"]
    let identifier = AttributeDescription(name: "identifier", type: .uuid)
    identifier.preservesValueInHistoryOnDeletion = true
    item.properties = [identifier, AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: "Untitled")]

    let author = EntityDescription(name: "Author")
    author.managedObjectClass = LibraryAuthor.self
    let name = AttributeDescription(name: "name", type: .string, isOptional: false)
    name.renamingIdentifier = "name"
    name.versionHashModifier = "trimmed"
    author.uniquenessConstraints = [["name"]]

    let book = EntityDescription(name: "Book")
    book.managedObjectClass = LibraryBook.self
    let tag = EntityDescription(name: "Tag")
    tag.indexes = [FetchIndexDescription(name: "compoundIndex1", elements: [FetchIndexElementDescription(propertyName: "label")])]

    let books = RelationshipDescription(name: "books", destination: book, toMany: true, deleteRule: .cascade)
    books.maxCount = 500
    let bookAuthor = RelationshipDescription(name: "author", destination: author)
    books.inverseRelationship = bookAuthor
    bookAuthor.inverseRelationship = books
    author.properties = [AttributeDescription(name: "born", type: .date, defaultValue: Date(timeIntervalSinceReferenceDate: -3_155_673_600)),
                         name, books]

    let cover = AttributeDescription(name: "cover", type: .binaryData)
    cover.allowsExternalBinaryDataStorage = true
    let scratch = AttributeDescription(name: "scratch", type: .string)
    scratch.isTransient = true
    let tags = RelationshipDescription(name: "tags", destination: tag, toMany: true, deleteRule: .noAction)
    tags.userInfo = ["note": "shown in the sidebar"]
    tags.isOrdered = true
    let tagBooks = RelationshipDescription(name: "books", destination: book, toMany: true, deleteRule: .deny)
    tagBooks.minCount = 1
    tags.inverseRelationship = tagBooks
    tagBooks.inverseRelationship = tags
    book.properties = [
        cover,
        AttributeDescription(name: "edition", type: .integer16, isOptional: false, defaultValue: Int16(1)),
        AttributeDescription(name: "inPrint", type: .boolean, isOptional: false, defaultValue: true),
        AttributeDescription(name: "isbn", type: .string, isIndexed: true),
        AttributeDescription(name: "pages", type: .integer32, defaultValue: Int32(0)),
        AttributeDescription(name: "price", type: .decimal, defaultValue: Decimal(string: "9.99")),
        AttributeDescription(name: "rating", type: .double, defaultValue: 0.0),
        scratch,
        AttributeDescription(name: "serial", type: .integer64, defaultValue: Int64(0)),
        AttributeDescription(name: "website", type: .uri),
        AttributeDescription(name: "weight", type: .float, defaultValue: Float(0.5)),
        bookAuthor, tags,
    ]
    book.indexes = [FetchIndexDescription(name: "byPagesAndTitle", elements: [
        FetchIndexElementDescription(propertyName: "pages", ascending: false),
        FetchIndexElementDescription(propertyName: "title"),
    ])]
    item.subentities = [book]
    tag.properties = [AttributeDescription(name: "label", type: .string, isOptional: false), tagBooks]

    let model = ManagedObjectModel(entities: [author, book, item, tag])
    model.name = "Library"
    model.versionIdentifiers = ["2"]
    model.setEntities([author, book], forConfigurationName: "Cloud")
    model.setEntities([tag], forConfigurationName: "Local")
    let template = FetchRequest<ManagedObject>(entityName: "Book")
    template.predicate = try? FetchPredicate(format: "author.name == $NAME")
    template.fetchLimit = 50
    template.fetchBatchSize = 20
    model.setFetchRequestTemplate(template, forName: "BooksByAuthor")
    return model
}

/// Every fact of a model a store, an object or a port depends on, one line each, so that two
/// models compare as text and a difference shows as the line that differs.
func modelFacts(_ model: ManagedObjectModel) -> [String] {
    var facts = ["model \(model.name ?? "-") versions \(model.versionIdentifiers.sorted())"]
    for name in model.configurations {
        facts.append("configuration \(name): \((model.entities(forConfigurationName: name) ?? []).map(\.description).sorted())")
    }
    for (name, template) in model.fetchRequestTemplatesByName.sorted(by: { $0.key < $1.key }) {
        facts.append("template \(name): \(template)")
    }
    for entity in model.entities.sorted(by: { $0.description < $1.description }) {
        facts.append("entity \(entity) class \(String(reflecting: entity.managedObjectClass)) abstract \(entity.isAbstract) parent \(entity.superentity?.description ?? "-") subentities \(entity.subentities.map(\.description).sorted()) indexes \(entity.indexes) constraints \(entity.uniquenessConstraints) info \(describe(entity.userInfo)) renaming \(entity.renamingIdentifier ?? "-") modifier \(entity.versionHashModifier ?? "-")")
        for property in entity.properties.sorted(by: { $0.name < $1.name }) {
            var fact = "  \(property) optional \(property.isOptional) transient \(property.isTransient) info \(describe(property.userInfo)) renaming \(property.renamingIdentifier ?? "-") modifier \(property.versionHashModifier ?? "-")"
            if let attribute = property as? AttributeDescription {
                fact += " \(attribute.attributeType) default \(attribute.defaultValue.map { "\(type(of: $0)) \($0)" } ?? "-") indexed \(attribute.isIndexed) external \(attribute.allowsExternalBinaryDataStorage) history \(attribute.preservesValueInHistoryOnDeletion)"
            }
            if let relationship = property as? RelationshipDescription {
                fact += " to \(relationship.destinationEntity?.description ?? "?") inverse \(relationship.inverseRelationship?.description ?? "-") rule \(relationship.deleteRule) count \(relationship.minCount)...\(relationship.maxCount) ordered \(relationship.isOrdered)"
            }
            facts.append(fact)
        }
    }
    return facts
}

private func describe(_ info: [AnyHashable: Any]?) -> String {
    guard let info else { return "-" }
    return info.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
}
