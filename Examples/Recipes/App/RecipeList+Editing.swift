import ExampleSupport
import Foundation
public import OpenCoreData

/// Adding and deleting recipes; each change is saved at once (or rolled back if the save fails),
/// and the controller reports it to ``RecipeList/table`` during the save (with a new section for
/// a new type, and a deleted section when the last recipe of a type goes).
extension RecipeList {
    /// Adds a recipe.
    ///
    /// - Throws: ``ToolError/failure(_:)`` for an empty name or type, or a name already in the book
    ///   (compared without case); nothing is changed then.
    @discardableResult
    public func add(name: String, type: String, overview: String? = nil, prepTime: Int16 = 0) throws -> Recipe {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let type = type.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw ToolError.failure("a recipe needs a name") }
        guard !type.isEmpty else { throw ToolError.failure("a recipe needs a type, such as Dessert") }
        if let existing = try recipe(named: name) {
            throw ToolError.failure("there is already a recipe named '\(existing.name)', in \(existing.type)")
        }
        return try context.saveOrRollback {
            let recipe = Recipe(context: context)
            recipe.name = name
            recipe.type = type
            recipe.overview = overview
            recipe.prepTime = prepTime
            return recipe
        }
    }

    /// Deletes the recipe with this name (compared without case), and its ingredients.
    ///
    /// - Returns: The recipe as it was: a deleted object can no longer be read.
    /// - Throws: ``ToolError/failure(_:)`` when there is no such recipe.
    @discardableResult
    public func deleteRecipe(named name: String) throws -> DeletedRecipe {
        guard let recipe = try recipe(named: name.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ToolError.failure("there is no recipe named '\(name)'")
        }
        let deleted = DeletedRecipe(objectID: recipe.objectID, name: recipe.name, type: recipe.type)
        try context.saveOrRollback { context.delete(recipe) }
        return deleted
    }

    /// The recipe with this name, compared without case.
    public func recipe(named name: String) throws -> Recipe? {
        let request = Recipe.fetchRequest()
        request.predicate = try FetchPredicate(format: "name ==[c] %@", name)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }
}

/// A recipe that was deleted, as it was before.
public struct DeletedRecipe: Sendable, Equatable {
    /// Its ID, which the controller's delete change names.
    public var objectID: ManagedObjectID
    /// Its name.
    public var name: String
    /// Its type: the section it was in.
    public var type: String
}
