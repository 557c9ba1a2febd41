/// An attribute whose value the library computes from other values when the object is saved:
/// Core Data's `NSDerivedAttributeDescription`. The value is stored, so predicates and sort
/// descriptors use it as any attribute, and no code sets it.
///
/// ```swift
/// let bookCount = DerivedAttributeDescription(name: "bookCount", type: .integer64)
/// bookCount.derivationExpression = FetchExpression(forKeyPath: "books.@count")
/// ```
///
/// The expressions are Core Data's:
/// - a key path through to-one relationships to an attribute of the same type: `author.name`;
/// - a to-many relationship's count or aggregate: `books.@count`, `books.@sum.pages`,
///   `@avg`, `@min`, `@max`;
/// - `now()`: when the object was last saved (a date attribute);
/// - `lowercase:(name)` and `canonical:(name)` (lowercased, without diacritics) of a string.
///
/// A value is computed when its object is saved, and when a save changes what it is computed
/// from one relationship away (a book's pages for its author's `books.@sum.pages`), which needs
/// the relationship's inverse. Batch requests write rows without recomputing, as in Core Data.
/// Setting a derived attribute is refused: the next save names it.
public final class DerivedAttributeDescription: AttributeDescription, @unchecked Sendable {
    /// What the value is computed from.
    public var derivationExpression: FetchExpression? {
        willSet { checkMutable() }
    }
}
