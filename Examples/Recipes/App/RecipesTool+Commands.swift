import ArgumentParser
import ExampleSupport

extension RecipesTool {
    /// `recipes list`, also `recipes` alone.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the recipes in sections by type, with the section index.")

        @OptionGroup var storage: StoreOptions<RecipesStore>

        func run() throws {
            try RecipesTool.perform(.list, in: storage.openSession())
        }
    }

    /// `recipes add NAME TYPE`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a recipe; a new type makes a new section.")

        @OptionGroup var storage: StoreOptions<RecipesStore>

        @Argument(help: "The recipe's name; quote one with spaces.")
        var name: String

        @Argument(help: "Its type, such as Dessert: the section it goes in.")
        var type: String

        func run() throws {
            try RecipesTool.perform(.add(name: name, type: type), in: storage.openSession())
        }
    }

    /// `recipes delete NAME`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a recipe and its ingredients.")

        @OptionGroup var storage: StoreOptions<RecipesStore>

        @Argument(help: "The recipe's name, in any case; quote one with spaces.")
        var name: String

        func run() throws {
            try RecipesTool.perform(.delete(name: name), in: storage.openSession())
        }
    }
}
