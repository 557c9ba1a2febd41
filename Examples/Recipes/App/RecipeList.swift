import Foundation
public import OpenCoreData

/// The seed's recipe list without UIKit: recipes in sections by type, sorted by type then name,
/// with the sections cached on disk under ``cacheName`` so that a relaunch shows them without
/// fetching.
///
/// Use a list on its context's queue, as the context.
public final class RecipeList {
    /// The section cache's name; a relaunch with the same name, request and store, and no save to
    /// the store in between, reads the sections from the cache instead of the store.
    public static let cacheName = "Recipes"

    /// The context the list reads and edits.
    public let context: ManagedObjectContext
    /// The controller behind the list.
    public let controller: FetchedResultsController<Recipe>
    /// The controller's delegate: collects each batch of changes, and gives the index titles.
    public let table = RecipeTable()

    /// The list's request: every recipe, by type, then by name. The section key path, `type`,
    /// must be the first sort key, so that sections follow the order.
    public static func request() -> FetchRequest<Recipe> {
        let request = Recipe.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "type"), FetchSortDescriptor(key: "name")]
        return request
    }

    /// A list of the recipes in `context`, fetched (or restored from the cache) and following
    /// changes.
    ///
    /// - Parameter cacheName: The section cache's name; tests that run side by side in one
    ///   process give each list its own.
    public init(context: ManagedObjectContext, cacheName: String? = RecipeList.cacheName) throws {
        self.context = context
        controller = FetchedResultsController(fetchRequest: Self.request(), managedObjectContext: context,
                                              sectionNameKeyPath: "type", cacheName: cacheName)
        // The delegate is set before the fetch: it gives the index titles the fetch records, and
        // a cache is written only for a controller that has one.
        controller.delegate = table
        try controller.performFetch()
    }

    /// The sections as the table shows them; reads every recipe.
    public var sections: [RecipeSection] {
        (controller.sections ?? []).map { section in
            RecipeSection(type: section.name, indexTitle: section.indexTitle,
                          recipes: (section.objects ?? []).compactMap { ($0 as? Recipe)?.name })
        }
    }

    /// The titles of the table's section index: one per section, a title equal to the one before
    /// it shown once.
    public var indexTitles: [String] {
        controller.sectionIndexTitles
    }

    /// How many recipes the list holds.
    public var count: Int {
        (controller.sections ?? []).reduce(0) { $0 + $1.numberOfObjects }
    }
}

/// One section of the recipe list.
public struct RecipeSection: Sendable, Equatable {
    /// The recipes' type: the section's name.
    public var type: String
    /// The section's title in the index, as the delegate gave it.
    public var indexTitle: String?
    /// The recipes' names, in order.
    public var recipes: [String]
}
