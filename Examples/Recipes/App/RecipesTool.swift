public import ArgumentParser
public import ExampleSupport
import Foundation
import OpenCoreData

/// `recipes`: the recipe list on a terminal. The first launch adds the sample recipes; `list`
/// (the default) prints the sections with their index titles; `add` and `delete` change the book
/// and print what the controller reported before the list.
///
/// ```swift
/// RecipesTool.main()
/// ```
public struct RecipesTool: ParsableCommand {
    /// `recipes`, its three commands, and what the first launch and `--sql` show.
    public static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Recipes in sections by type, with a section index and a section cache.",
        discussion: """
            The first launch adds \(RecipeBook.entries.count) sample recipes. A relaunch reads the sections from the \
            "\(RecipeList.cacheName)" cache ($XDG_CACHE_HOME or ~/.cache) instead of the store, as --sql shows.
            """,
        subcommands: [List.self, Add.self, Delete.self],
        defaultSubcommand: List.self
    )

    /// `--store PATH` and `--sql`, which may also follow the command.
    @OptionGroup public var storage: StoreOptions<RecipesStore>

    /// A command line without a command: `list`.
    public init() {}

    /// Adds the samples to an empty store, runs the command, and shows the changes and the list.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - session: The store, a context on it and the output.
    public static func perform(_ command: RecipesCommand, in session: ToolSession) throws {
        let context = session.context
        let output = session.output
        try context.performAndWait {
            if try RecipeBook.addSamplesIfEmpty(into: context) > 0 {
                output.print("Added \(RecipeBook.entries.count) sample recipes to \(session.location.displayPath)")
            }
            let list = try RecipeList(context: context)
            var deleted: DeletedRecipe?
            switch command {
            case .list:
                break
            case .add(let name, let type):
                let recipe = try list.add(name: name, type: type)
                output.print("Added \(recipe.name) to \(recipe.type)")
            case .delete(let name):
                let recipe = try list.deleteRecipe(named: name)
                deleted = recipe
                output.print("Deleted \(recipe.name) from \(recipe.type)")
            }
            showChanges(of: list, deleted: deleted, output: output)
            show(list, output: output)
        }
    }

    private static func showChanges(of list: RecipeList, deleted: DeletedRecipe?, output: ToolOutput) {
        let label = { (id: ManagedObjectID) in
            id == deleted?.objectID ? deleted?.name ?? "" : (list.context.object(with: id) as? Recipe)?.name ?? "?"
        }
        for batch in list.table.batches {
            for line in TableStandIn.describe(batch, label: label) {
                output.print("  table: \(line)")
            }
        }
    }

    private static func show(_ list: RecipeList, output: ToolOutput) {
        let sections = list.sections
        output.print("Recipes: \(list.count) in \(sections.count) types")
        for section in sections {
            output.print("[\(section.indexTitle ?? " ")] \(section.type)")
            for name in section.recipes {
                output.print("      \(name)")
            }
        }
        output.print("Index: \(list.indexTitles.joined(separator: " "))")
    }
}
