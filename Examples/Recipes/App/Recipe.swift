public import OpenCoreData

/// A recipe: the seed's `Recipe` entity. The list groups recipes by ``type``.
public final class Recipe: ManagedObject {
    /// The recipe's name, unique in the book.
    @Managed public var name: String
    /// What kind of dish it is ("Dessert", "Entrée"): the list's sections. Indexed, as it is the
    /// first sort key.
    @Managed(indexed: true) public var type: String
    /// A sentence about the dish.
    @Managed public var overview: String?
    /// Minutes from start to table.
    @Managed public var prepTime: Int16 = 0
    /// What goes in; deleting the recipe deletes them too.
    @Managed(inverse: "recipe", deleteRule: .cascade) public var ingredients: Set<Ingredient>
}
