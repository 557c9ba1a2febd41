import Foundation
import OpenCoreData
import RecipesApp
import Testing

/// The delegate's index titles (Core Data's `controller(_:sectionIndexTitleForSectionName:)`):
/// each section's title, and the table's index, come from ``RecipeIndexTitle``.
@Suite struct RecipesIndexTitleTests {
    @Test(arguments: [("Dessert", "🍰"), ("Entrée", "🍝"), ("dessert", "D"), ("épices", "E"), ("¡Tapas!", "T"),
                      ("Œufs", "Œ"), ("2-minute meals", "M"), ("123", "#"), ("", "#")])
    func theBooksTypesHavePicturesAndOthersTheirFirstLetter(type: String, title: String) {
        #expect(RecipeIndexTitle.title(forType: type) == title)
    }

    @Test func everySectionHasTheDelegatesTitle() throws {
        let store = try RecipesSampleStore()
        let context = store.container.newBackgroundContext()
        try context.performAndWait {
            let list = try RecipeList(context: context, cacheName: nil)
            try list.add(name: "Ras el Hanout", type: "Épices")
            #expect(list.sections.map(\.type) == RecipesSampleStore.sampleTypes + ["Épices"])
            #expect(list.sections.map(\.indexTitle) == ["🥗", "🍳", "🍰", "🍹", "🍝", "🥣", "E"])
            #expect(list.indexTitles == ["🥗", "🍳", "🍰", "🍹", "🍝", "🥣", "E"])
            // Without the delegate, the controller's default is the name's first letter as it is.
            let plain = FetchedResultsController(fetchRequest: RecipeList.request(), managedObjectContext: context,
                                                 sectionNameKeyPath: "type", cacheName: nil)
            try plain.performFetch()
            #expect(plain.sectionIndexTitles == ["A", "B", "D", "E", "S", "É"])
        }
    }

    @Test func theIndexShowsATitleOnceAndLeadsToItsFirstSection() throws {
        let store = try RecipesSampleStore()
        let context = store.container.newBackgroundContext()
        try context.performAndWait {
            let list = try RecipeList(context: context, cacheName: nil)
            try list.add(name: "Croque Monsieur", type: "Snack")
            try list.add(name: "Fattoush", type: "Salad")
            #expect(list.sections.map(\.indexTitle) == ["🥗", "🍳", "🍰", "🍹", "🍝", "S", "S", "🥣"])
            #expect(list.indexTitles == ["🥗", "🍳", "🍰", "🍹", "🍝", "S", "🥣"])
            #expect(list.indexTitles == list.controller.sectionIndexTitles)
            #expect(list.controller.section(forSectionIndexTitle: "S", at: 5) == 5)
            #expect(list.controller.section(forSectionIndexTitle: "🥣", at: 6) == 7)
        }
    }
}
