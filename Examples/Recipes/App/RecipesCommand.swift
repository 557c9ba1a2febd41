import Foundation
import OpenCoreData
import SampleAppSupport

/// `recipes`: the recipe list on a terminal. The first launch adds the sample recipes; `list`
/// (the default) prints the sections with their index titles; `add` and `delete` change the book
/// and print what the controller reported before the list.
public enum RecipesCommand {
    /// The help text, also printed after a bad command line.
    public static let usage = """
        usage: recipes [--store PATH] [--sql] [list | add NAME TYPE | delete NAME]
          list             the recipes in sections by type, with the section index (the default)
          add NAME TYPE    add a recipe; a new TYPE makes a new section
          delete NAME      delete a recipe and its ingredients
          --store PATH     the SQLite store (default: $XDG_DATA_HOME or ~/.local/share, Recipes/Recipes.sqlite)
          --sql            print each SQL statement to standard error as it runs: a relaunch reads the
                           sections from the "\(RecipeList.cacheName)" cache ($XDG_CACHE_HOME or ~/.cache) instead
        """

    /// What the command line asks for.
    private enum Action {
        case list
        case add(name: String, type: String)
        case delete(name: String)
    }

    /// Runs the command line (without the program's name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        CommandRunner.run(name: "recipes", usage: usage) { try run(arguments) }
    }

    private static func run(_ arguments: [String]) throws {
        let options = try CommandLineArguments(arguments, valueOptions: ["--store"], flagOptions: ["--sql", "--help"])
        if options.contains("--help") {
            print(usage)
            return
        }
        let action = try parseAction(options.operands)
        let location = StoreLocation.fromOption(options.value(of: "--store"), app: RecipesStore.name)
        let trace = options.contains("--sql") ? SQLTrace { writeToStandardError("sql: " + $0) } : nil
        let container = try RecipesStore.open(location, trace: trace)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            if try RecipeBook.addSamplesIfEmpty(into: context) > 0 {
                print("Added \(RecipeBook.entries.count) sample recipes to \(location.displayPath)")
            }
            let list = try RecipeList(context: context)
            var deleted: DeletedRecipe?
            switch action {
            case .list:
                break
            case .add(let name, let type):
                let recipe = try list.add(name: name, type: type)
                print("Added \(recipe.name) to \(recipe.type)")
            case .delete(let name):
                let recipe = try list.deleteRecipe(named: name)
                deleted = recipe
                print("Deleted \(recipe.name) from \(recipe.type)")
            }
            showChanges(of: list, deleted: deleted)
            show(list)
        }
    }

    private static func parseAction(_ operands: [String]) throws(UsageError) -> Action {
        guard let command = operands.first else { return .list }
        let rest = Array(operands.dropFirst())
        switch (command, rest.count) {
        case ("list", 0): return .list
        case ("add", 2): return .add(name: rest[0], type: rest[1])
        case ("delete", 1): return .delete(name: rest[0])
        case ("list", _): throw UsageError("list takes no arguments")
        case ("add", _): throw UsageError("add takes a NAME and a TYPE (quote a name with spaces)")
        case ("delete", _): throw UsageError("delete takes one NAME (quote a name with spaces)")
        default: throw UsageError("unknown command '\(command)'")
        }
    }

    private static func showChanges(of list: RecipeList, deleted: DeletedRecipe?) {
        let label = { (id: ManagedObjectID) in
            id == deleted?.objectID ? deleted?.name ?? "" : (list.context.object(with: id) as? Recipe)?.name ?? "?"
        }
        for batch in list.table.batches {
            for line in TableStandIn.describe(batch, label: label) {
                print("  table: \(line)")
            }
        }
    }

    private static func show(_ list: RecipeList) {
        let sections = list.sections
        print("Recipes: \(list.count) in \(sections.count) types")
        for section in sections {
            print("[\(section.indexTitle ?? " ")] \(section.type)")
            for name in section.recipes {
                print("      \(name)")
            }
        }
        print("Index: \(list.indexTitles.joined(separator: " "))")
    }
}
