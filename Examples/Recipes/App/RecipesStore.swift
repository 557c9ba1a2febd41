public import OpenCoreData
public import SampleAppSupport

/// The Recipes app's model and store: `Recipe` and `Ingredient`, in `Recipes.sqlite` by default.
public enum RecipesStore: SampleAppStore {
    public static let name = "Recipes"
    public static var managedObjectClasses: [ManagedObject.Type] { [Recipe.self, Ingredient.self] }
}
