import Foundation

/// The recipe list's section index titles, which the list's delegate gives the controller: the
/// seed's chapter names "massaging" the titles as the use of the delegate's index-title method.
///
/// The book's own types get a picture ("Dessert" is 🍰), which also keeps "Dessert" and "Drink"
/// apart in the index. Any other type gets its first letter without an accent, uppercased, so
/// that "épices" files under E, where the controller's default would give "É".
public enum RecipeIndexTitle {
    /// The titles of the types the sample recipes use.
    public static let pictures: [String: String] = [
        "Appetizer": "🥗", "Breakfast": "🍳", "Dessert": "🍰", "Drink": "🍹", "Entrée": "🍝", "Soup": "🥣",
    ]

    /// The title of a type with no letter in it ("123", "").
    public static let noLetter = "#"

    /// The index title of a section of recipes of `type`.
    public static func title(forType type: String) -> String {
        if let picture = pictures[type] { return picture }
        // Leading punctuation and digits are skipped: "¡Tapas!" files under T.
        guard let letter = type.first(where: \.isLetter) else { return noLetter }
        return String(letter).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).uppercased()
    }
}
