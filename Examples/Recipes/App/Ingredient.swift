public import OpenCoreData

/// One line of a recipe's ingredient list.
public final class Ingredient: ManagedObject {
    /// What it is: "plain flour".
    @Managed public var name: String
    /// How much, as the recipe says it: "200 g".
    @Managed public var quantity: String?
    /// The recipe it belongs to.
    @Managed(inverse: "ingredients") public var recipe: Recipe?
}
