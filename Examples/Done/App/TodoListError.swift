/// A change the to-do list refuses; the store is left as it was.
public enum TodoListError: Error, Equatable, CustomStringConvertible {
    /// The text to add is empty or only spaces.
    case emptyName
    /// No row has this number.
    case noSuchItem(number: Int, count: Int)

    /// What the user reads: what is wrong, and what to type instead where it helps.
    public var description: String {
        switch self {
        case .emptyName:
            "there is nothing to add: give the item's text, as in `done add \"milk\"`"
        case .noSuchItem(let number, 0):
            "there is no item \(number): the list is empty"
        case .noSuchItem(let number, let count):
            "there is no item \(number): the items are numbered 1 to \(count)"
        }
    }
}
