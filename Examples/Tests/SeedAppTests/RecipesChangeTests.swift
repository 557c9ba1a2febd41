import ExampleSupport
import FetchedResultsChecking
import Foundation
import OpenCoreData
import RecipesApp
import Testing

/// Recipes added and deleted through the app: each batch, applied to the table's rows with
/// UIKit's rules, gives what a fresh fetch gives, sections included.
@Suite struct RecipesChangeTests {
    /// The list on the sample recipes, and the rows its table shows.
    private func openScreen() throws -> CheckedScreen<RecipeList> {
        try CheckedScreen(try RecipesSampleStore().scratch) { try RecipeList(context: $0, cacheName: nil) }
    }

    private func path(_ section: Int, _ row: Int) -> IndexPath {
        IndexPath(row: row, section: section)
    }

    @Test func aRecipeOfAKnownTypeIsARowInItsSection() throws {
        let screen = try openScreen()
        try screen.context.performAndWait {
            let recipe = try screen.list.add(name: "Gazpacho", type: "Soup", overview: "Cold tomato soup.", prepTime: 20)
            let batches = try screen.table.applyReportedBatches()
            #expect(batches == [FetchedResultsChanges(objectChanges: [
                .init(type: .insert, objectID: recipe.objectID, indexPath: nil, newIndexPath: path(5, 1)),
            ])])
        }
    }

    @Test func aRecipeOfANewTypeIsANewSection() throws {
        let screen = try openScreen()
        try screen.context.performAndWait {
            let recipe = try screen.list.add(name: "Croque Monsieur", type: "Snack")
            let batches = try screen.table.applyReportedBatches()
            #expect(batches == [FetchedResultsChanges(
                sectionChanges: [.init(type: .insert, sectionIndex: 5, name: "Snack")],
                objectChanges: [.init(type: .insert, objectID: recipe.objectID, indexPath: nil, newIndexPath: path(5, 0))])])
            #expect(screen.list.sections.map(\.type) == ["Appetizer", "Breakfast", "Dessert", "Drink", "Entrée", "Snack", "Soup"])
        }
    }

    @Test func deletingOneOfSeveralRecipesDeletesItsRowAndIngredients() throws {
        let screen = try openScreen()
        try screen.context.performAndWait {
            let ingredients = try screen.context.count(for: Ingredient.fetchRequest())
            let lemonPosset = try #require(try screen.list.recipe(named: "Lemon Posset"))
            let lines = lemonPosset.ingredients.count
            let deleted = try screen.list.deleteRecipe(named: "lemon posset")
            #expect(deleted.objectID == lemonPosset.objectID && deleted.name == "Lemon Posset" && deleted.type == "Dessert")
            let batches = try screen.table.applyReportedBatches()
            #expect(batches == [FetchedResultsChanges(objectChanges: [
                .init(type: .delete, objectID: lemonPosset.objectID, indexPath: path(2, 2), newIndexPath: nil),
            ])])
            #expect(try screen.context.count(for: Ingredient.fetchRequest()) == ingredients - lines)
        }
    }

    @Test func deletingTheLastRecipeOfATypeDeletesItsSection() throws {
        let screen = try openScreen()
        try screen.context.performAndWait {
            let lemonade = try #require(try screen.list.recipe(named: "Mint Lemonade"))
            try screen.list.deleteRecipe(named: "Mint Lemonade")
            let batches = try screen.table.applyReportedBatches()
            #expect(batches == [FetchedResultsChanges(
                sectionChanges: [.init(type: .delete, sectionIndex: 3, name: "Drink")],
                objectChanges: [.init(type: .delete, objectID: lemonade.objectID, indexPath: path(3, 0), newIndexPath: nil)])])
            #expect(screen.list.indexTitles == ["🥗", "🍳", "🍰", "🍝", "🥣"])
        }
    }

    @Test func aSequenceOfChangesKeepsTheTableInStep() throws {
        let screen = try openScreen()
        try screen.context.performAndWait {
            let changes: [(RecipeList) throws -> Void] = [
                { try $0.add(name: "Pão de Queijo", type: "Snack") },
                { try $0.add(name: "Churros", type: "Snack") },
                { try $0.deleteRecipe(named: "Bruschetta") },
                { try $0.deleteRecipe(named: "Stuffed Mushrooms") },
                { try $0.add(name: "Hummus", type: "Appetizer") },
                { try $0.deleteRecipe(named: "Pão de Queijo") },
                { try $0.deleteRecipe(named: "Churros") },
            ]
            for change in changes {
                try change(screen.list)
                #expect(try screen.table.applyReportedBatches().count == 1)
            }
            #expect(screen.table.rows.sections.map(\.name) == RecipesSampleStore.sampleTypes)
        }
    }

    @Test(arguments: [("Bruschetta", "Appetizer"), ("BRUSCHETTA", "Soup"), ("  ", "Soup"), ("Toast", " ")])
    func aRefusedRecipeChangesNothing(name: String, type: String) throws {
        let screen = try openScreen()
        screen.context.performAndWait {
            #expect(throws: ToolError.self) { try screen.list.add(name: name, type: type) }
            #expect(throws: ToolError.self) { try screen.list.deleteRecipe(named: "Toast") }
            #expect(screen.list.table.batches.isEmpty)
            #expect(!screen.context.hasChanges)
            #expect(screen.list.count == RecipeBook.entries.count)
        }
    }
}
