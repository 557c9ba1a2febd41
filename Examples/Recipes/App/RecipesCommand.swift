/// One command of the `recipes` tool, as the argument parser read it.
///
/// ```swift
/// try RecipesTool.perform(.add(name: "Croque Monsieur", type: "Snack"), in: session)
/// ```
public enum RecipesCommand: Sendable, Equatable {
    /// Show the list: the default.
    case list
    /// Add a recipe.
    case add(name: String, type: String)
    /// Delete a recipe, found by name without case.
    case delete(name: String)
}
