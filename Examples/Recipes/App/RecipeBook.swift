public import OpenCoreData

/// The recipes a new store starts with, so that the first launch shows a list with sections.
public enum RecipeBook {
    /// One recipe as the book lists it.
    public struct Entry: Sendable {
        /// The recipe's name.
        public var name: String
        /// Its type, which is its section.
        public var type: String
        /// A sentence about the dish.
        public var overview: String
        /// Minutes from start to table.
        public var prepTime: Int16
        /// What goes in, and how much.
        public var ingredients: [(quantity: String, name: String)]
    }

    /// The sample recipes, in no particular order: the list sorts them.
    public static let entries: [Entry] = [
        Entry(name: "Stuffed Mushrooms", type: "Appetizer", overview: "Mushroom caps baked with garlic, herbs and breadcrumbs.",
              prepTime: 30, ingredients: [("12", "large mushrooms"), ("2 cloves", "garlic"), ("40 g", "breadcrumbs")]),
        Entry(name: "Bruschetta", type: "Appetizer", overview: "Grilled bread under chopped tomato and basil.",
              prepTime: 15, ingredients: [("4 slices", "country bread"), ("3", "ripe tomatoes"), ("1 handful", "basil")]),
        Entry(name: "Buttermilk Pancakes", type: "Breakfast", overview: "Thick pancakes for a slow Sunday.",
              prepTime: 25, ingredients: [("200 g", "plain flour"), ("300 ml", "buttermilk"), ("1", "egg")]),
        Entry(name: "Shakshuka", type: "Breakfast", overview: "Eggs poached in a spiced pepper and tomato sauce.",
              prepTime: 35, ingredients: [("4", "eggs"), ("1 tin", "chopped tomatoes"), ("1", "red pepper")]),
        Entry(name: "Apple Crumble", type: "Dessert", overview: "Soft apples under a buttery oat topping.",
              prepTime: 50, ingredients: [("4", "apples"), ("100 g", "oats"), ("80 g", "butter")]),
        Entry(name: "Lemon Posset", type: "Dessert", overview: "Cream set with lemon juice; no oven needed.",
              prepTime: 20, ingredients: [("300 ml", "double cream"), ("75 g", "sugar"), ("2", "lemons")]),
        Entry(name: "Chocolate Mousse", type: "Dessert", overview: "Dark chocolate folded into whipped egg whites.",
              prepTime: 25, ingredients: [("150 g", "dark chocolate"), ("4", "eggs")]),
        Entry(name: "Mint Lemonade", type: "Drink", overview: "Lemons, mint and sparkling water over ice.",
              prepTime: 10, ingredients: [("3", "lemons"), ("1 bunch", "mint"), ("1 l", "sparkling water")]),
        Entry(name: "Chicken Tagine", type: "Entrée", overview: "Chicken slow-cooked with preserved lemon and olives.",
              prepTime: 90, ingredients: [("1 kg", "chicken thighs"), ("1", "preserved lemon"), ("100 g", "green olives")]),
        Entry(name: "Mushroom Risotto", type: "Entrée", overview: "Arborio rice stirred with stock and porcini.",
              prepTime: 45, ingredients: [("300 g", "arborio rice"), ("30 g", "dried porcini"), ("1 l", "stock")]),
        Entry(name: "Salmon en Papillote", type: "Entrée", overview: "Salmon steamed in parchment with fennel.",
              prepTime: 30, ingredients: [("2", "salmon fillets"), ("1", "fennel bulb")]),
        Entry(name: "French Onion Soup", type: "Soup", overview: "Slow-browned onions in broth under a cheese crust.",
              prepTime: 75, ingredients: [("1 kg", "onions"), ("1 l", "beef stock"), ("100 g", "gruyère")]),
        Entry(name: "Minestrone", type: "Soup", overview: "Vegetables, beans and small pasta in tomato broth.",
              prepTime: 60, ingredients: [("1 tin", "cannellini beans"), ("2", "carrots"), ("80 g", "ditalini")]),
    ]

    /// Inserts the sample recipes in one save when the store has no recipe yet.
    ///
    /// - Returns: How many recipes were added: 0 when the store already had recipes.
    @discardableResult
    public static func addSamplesIfEmpty(into context: ManagedObjectContext) throws -> Int {
        guard try context.count(for: Recipe.fetchRequest()) == 0 else { return 0 }
        for entry in entries {
            let recipe = Recipe(context: context)
            recipe.name = entry.name
            recipe.type = entry.type
            recipe.overview = entry.overview
            recipe.prepTime = entry.prepTime
            for line in entry.ingredients {
                let ingredient = Ingredient(context: context)
                ingredient.name = line.name
                ingredient.quantity = line.quantity
                ingredient.recipe = recipe
            }
        }
        try context.save()
        return entries.count
    }
}
