import Foundation
import OpenCoreData
import Testing

// This test target declares its own `Managed` at module level, as apps that follow the widely
// taught Core Data pattern do (objc.io's *Core Data*, chapter 1): the declaration hides the
// library's `@Managed` property wrapper in the whole module. The target compiles only if that
// pattern can still declare managed properties, which is the point of it.

/// The app's own protocol, as the books write it.
protocol Managed: AnyObject {
    static var defaultSortDescriptors: [FetchSortDescriptor] { get }
}

extension Managed where Self: ManagedObject {
    /// A fetch request sorted the type's default way: the pattern's everyday use.
    static var sortedFetchRequest: FetchRequest<Self> {
        let request = FetchRequest<Self>(entityName: entityName)
        request.sortDescriptors = defaultSortDescriptors
        return request
    }
}

final class Mood: ManagedObject, Managed {
    static var defaultSortDescriptors: [FetchSortDescriptor] { [FetchSortDescriptor(key: "date", ascending: false)] }

    @ManagedProperty var date: Date
    @ManagedProperty var colors: Data?
    @ManagedProperty(indexed: true) var rating: Int16 = 0
    @OpenCoreData.Managed(inverse: "moods") var country: Country?
}

final class Country: ManagedObject, Managed {
    static var defaultSortDescriptors: [FetchSortDescriptor] { [FetchSortDescriptor(key: "code")] }

    @ManagedProperty var code: String
    @ManagedProperty(inverse: "country", deleteRule: .cascade) var moods: Set<Mood>
}

@Suite struct ManagedProtocolPatternTests {
    @Test func anAppsOwnManagedProtocolAndTheLibrarysWrapperLiveTogether() throws {
        let container = try PersistentContainer(name: "Moody", managedObjectClasses: [Mood.self, Country.self])
        let description = PersistentStoreDescription()
        description.type = InMemoryStoreType
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()

        let mood = try #require(container.managedObjectModel.entitiesByName["Mood"])
        #expect(mood.attributesByName.keys.sorted() == ["colors", "date", "rating"])
        #expect(mood.attributesByName["date"]?.isOptional == false)
        #expect(mood.attributesByName["rating"]?.isIndexed == true)
        #expect(mood.relationshipsByName["country"]?.inverseRelationship?.name == "moods")

        let context = container.newBackgroundContext()
        try context.performAndWait {
            let france = Country(context: context)
            france.code = "FR"
            for day in 0..<3 {
                let entry = Mood(context: context)
                entry.date = Date(timeIntervalSince1970: Double(day) * 86_400)
                entry.rating = Int16(day)
                entry.country = france
            }
            try context.save()
            let moods = try context.fetch(Mood.sortedFetchRequest)
            #expect(moods.map(\.rating) == [2, 1, 0])
            #expect(try context.fetch(Country.sortedFetchRequest).first?.moods.count == 3)
        }
    }
}
