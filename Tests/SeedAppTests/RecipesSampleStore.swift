import Foundation
import OpenCoreData
import RecipesApp
import SampleAppSupport

/// A Recipes store with the sample recipes, in a scratch directory, with its SQL traced; and
/// section cache names that tests running side by side in one process do not share.
struct RecipesSampleStore {
    let scratch = SampleAppScratch()
    let trace = SQLTrace()
    let container: PersistentContainer

    init() throws {
        container = try RecipesStore.open(.file(scratch.file("Recipes.sqlite")), trace: trace)
        let context = container.newBackgroundContext()
        try context.performAndWait { _ = try RecipeBook.addSamplesIfEmpty(into: context) }
    }

    /// The same store opened again, as the next launch of the app opens it.
    func relaunched(trace: SQLTrace) throws -> PersistentContainer {
        try RecipesStore.open(.file(scratch.file("Recipes.sqlite")), trace: trace)
    }

    /// A cache name of the test's own.
    static func uniqueCacheName() -> String {
        "\(RecipeList.cacheName)-\(UUID().uuidString)"
    }

    /// The sample types, in the list's order.
    static let sampleTypes = ["Appetizer", "Breakfast", "Dessert", "Drink", "Entrée", "Soup"]
}
