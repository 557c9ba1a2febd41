import Foundation
import OpenCoreData
import RecipesApp

/// A Recipes store with the sample recipes, in a scratch directory, with its SQL traced; and
/// section cache names that tests running side by side in one process do not share.
struct RecipesSampleStore {
    let scratch: ScratchStore

    init() throws {
        scratch = try ScratchStore(RecipesStore.self)
        let context = scratch.container.newBackgroundContext()
        try context.performAndWait { _ = try RecipeBook.addSamplesIfEmpty(into: context) }
    }

    /// The loaded store's container.
    var container: PersistentContainer { scratch.container }

    /// A cache name of the test's own.
    static func uniqueCacheName() -> String {
        "\(RecipeList.cacheName)-\(UUID().uuidString)"
    }

    /// The sample types, in the list's order.
    static let sampleTypes = ["Appetizer", "Breakfast", "Dessert", "Drink", "Entrée", "Soup"]
}
