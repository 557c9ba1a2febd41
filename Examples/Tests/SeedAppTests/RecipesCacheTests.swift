import ExampleSupport
import FetchedResultsChecking
import Foundation
import OpenCoreData
import RecipesApp
import Testing

/// The list's section cache: written after the list's fetch and after its own saves, read by the
/// next launch instead of querying the recipes, and not used after a save from elsewhere. Each
/// test uses a cache name of its own; that the `recipes` tool's list uses the one named "Recipes"
/// is checked from outside, by the cache file it leaves, in `RecipesCommandLineTests`.
@Suite struct RecipesCacheTests {
    /// What opening the list read, and showed.
    private struct Launch {
        var selects: [String]
        var sections: [RecipeSection]
        /// Whether the list was built by querying the recipes, rather than from the cache. Loading
        /// the rows shown afterwards (`"_pk" IN (…)`) is not counted.
        var queriedRecipes: Bool {
            selects.contains { $0.contains("FROM \"Recipe\"") && !$0.contains("\"_pk\" IN (") }
        }
    }

    /// Opens the list in a new container on the same store, as a launch of the app does, then
    /// runs `body` and waits for the cache writes it caused.
    private func launch(_ store: RecipesSampleStore, cacheName: String, then body: (RecipeList) throws -> Void = { _ in }) throws -> Launch {
        let trace = SQLTrace()
        let container = try store.scratch.relaunched(trace: trace)
        let context = container.newBackgroundContext()
        let launch = try context.performAndWait {
            var made: RecipeList?
            let selects = try trace.selects { made = try RecipeList(context: context, cacheName: cacheName) }
            let list = try #require(made)
            let launch = Launch(selects: selects, sections: list.sections)
            try body(list)
            return launch
        }
        SectionCacheFiles.waitForWrites()
        return launch
    }

    @Test func aRelaunchReadsTheSectionsFromTheCache() throws {
        let store = try RecipesSampleStore()
        let name = RecipesSampleStore.uniqueCacheName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        let first = try launch(store, cacheName: name)
        #expect(first.queriedRecipes)
        #expect(FileManager.default.fileExists(atPath: SectionCacheFiles.fileURL(forCacheName: name).path))

        let second = try launch(store, cacheName: name)
        #expect(!second.queriedRecipes, "\(second.selects)")
        #expect(second.sections == first.sections)
        #expect(second.sections.map(\.indexTitle) == ["🥗", "🍳", "🍰", "🍹", "🍝", "🥣"])
    }

    @Test func theListsOwnSaveKeepsTheCacheValid() throws {
        let store = try RecipesSampleStore()
        let name = RecipesSampleStore.uniqueCacheName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try launch(store, cacheName: name) { list in
            try list.add(name: "Croque Monsieur", type: "Snack")
            _ = try list.deleteRecipe(named: "Minestrone")
        }
        let next = try launch(store, cacheName: name)
        #expect(!next.queriedRecipes, "\(next.selects)")
        #expect(next.sections.map(\.type) == Array(RecipesSampleStore.sampleTypes.dropLast()) + ["Snack", "Soup"])
        #expect(next.sections.last?.recipes == ["French Onion Soup"])
    }

    @Test func aSaveFromAnotherProcessMakesTheCacheStale() throws {
        let store = try RecipesSampleStore()
        let name = RecipesSampleStore.uniqueCacheName()
        defer { AnyFetchedResultsController.deleteCache(withName: name) }
        _ = try launch(store, cacheName: name)
        // Another container on the same file stands in for another process.
        let other = try store.scratch.relaunched()
        let context = other.newBackgroundContext()
        try context.performAndWait {
            _ = try RecipeList(context: context, cacheName: nil).add(name: "Gazpacho", type: "Soup")
        }
        let next = try launch(store, cacheName: name)
        #expect(next.queriedRecipes)
        #expect(next.sections.last?.recipes == ["French Onion Soup", "Gazpacho", "Minestrone"])
    }
}
