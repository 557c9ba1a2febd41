public import ExampleSupport
public import OpenCoreData

/// The Recipes app's model and store: `Recipe` and `Ingredient`, in
/// `<data directory>/Recipes/Recipes.sqlite` by default.
public enum RecipesStore: ExampleStore {
    /// `Recipes`.
    public static let name = "Recipes"
    /// A recipe and its ingredients.
    public static var managedObjectClasses: [ManagedObject.Type] { [Recipe.self, Ingredient.self] }
}
