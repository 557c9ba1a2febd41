public import ExampleSupport

/// One command of the Done tool, as the argument parser read it.
///
/// ```swift
/// try DoneTool.perform(.add("milk"), in: session)  // prints "+ milk"
/// ```
public enum DoneCommand: Sendable, Equatable {
    /// Add an item with this text.
    case add(String)
    /// Print the items.
    case list
    /// Mark an item done, or not done again.
    case toggle(RowNumber)
    /// Delete an item.
    case delete(RowNumber)
}
